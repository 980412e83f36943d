import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { Field, TextareaField } from '#app/components/forms.tsx'
import { numberInputProps } from '#app/components/forms/number-input-props.ts'
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
      <Field
        labelProps={{ children: 'Hub name' }}
        errors={fields.name.errors}
        inputProps={getInputProps(fields.name, { type: 'text' })}
      />
      <Field
        labelProps={{ children: 'Address' }}
        errors={fields.address.errors}
        inputProps={getInputProps(fields.address, { type: 'text' })}
      />
      <div className="grid grid-cols-2 gap-4">
        <Field
          labelProps={{ children: 'Latitude' }}
          hint="e.g. -33.9249"
          errors={fields.latitude.errors}
          inputProps={numberInputProps(fields.latitude)}
        />
        <Field
          labelProps={{ children: 'Longitude' }}
          hint="e.g. 18.4241"
          errors={fields.longitude.errors}
          inputProps={numberInputProps(fields.longitude)}
        />
      </div>
      <TextareaField
        labelProps={{ children: 'Description (optional)' }}
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
