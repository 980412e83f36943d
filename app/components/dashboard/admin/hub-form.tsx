import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { TextareaField } from '#app/components/forms.tsx'
import { NumberField } from '#app/components/forms/number-field.tsx'
import { TextField } from '#app/components/forms/text-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { HubSchema } from '#app/domain/admin/schemas.ts'

import { ActiveStatusField, SaveActions } from './ui.tsx'

export interface HubDefaults {
  name?: string
  address?: string
  latitude?: number
  longitude?: number
  description?: string | null
  isActive?: boolean
}

export function HubForm({
  lastResult,
  defaults,
  closeTo,
  submitLabel,
}: {
  lastResult?: SubmissionResult<string[]>
  defaults?: HubDefaults
  closeTo: string
  submitLabel: string
}) {
  const submitting = useIsPending({ state: 'submitting' })
  const [form, fields] = useForm({
    id: 'hub-form',
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: HubSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onBlur',
    defaultValue: {
      name: defaults?.name ?? '',
      address: defaults?.address ?? '',
      latitude: defaults?.latitude !== undefined ? String(defaults.latitude) : '',
      longitude: defaults?.longitude !== undefined ? String(defaults.longitude) : '',
      description: defaults?.description ?? '',
      isActive: defaults?.isActive === false ? 'false' : 'true',
    },
  })
  const anyErrors = [fields.name, fields.address, fields.latitude, fields.longitude].some(
    (f) => f.errors?.length,
  )
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {anyErrors ? (
        <Alert tone="error" title="Validation Error">
          Please fill in all required fields: name, address, and coordinates.
        </Alert>
      ) : null}
      <TextField label="Hub name" field={fields.name} />
      <TextField label="Address" field={fields.address} />
      <div className="grid grid-cols-2 gap-4">
        <NumberField label="Latitude" hint="e.g. -33.9249" field={fields.latitude} />
        <NumberField label="Longitude" hint="e.g. 18.4241" field={fields.longitude} />
      </div>
      <TextareaField
        label="Description (optional)"
        errors={fields.description.errors}
        textareaProps={{ ...getInputProps(fields.description, { type: 'text' }), rows: 2 }}
      />
      <ActiveStatusField name={fields.isActive.name} initialValue={fields.isActive.initialValue} />
      <SaveActions closeTo={closeTo} pending={submitting}>
        {submitLabel}
      </SaveActions>
    </Form>
  )
}
