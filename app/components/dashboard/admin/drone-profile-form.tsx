import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { numberInputProps } from '#app/components/forms/number-input-props.ts'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import {
  DRONE_PROFILE_FIELDS,
  DroneProfileSchema,
  type DroneProfileInput,
} from '#app/domain/survey/drone-profile-schema.ts'

import { ActiveStatusField, SaveActions } from './ui.tsx'

export function DroneProfileForm({
  lastResult,
  defaults,
  closeTo,
  submitLabel,
}: {
  lastResult?: SubmissionResult<string[]>
  defaults?: Partial<DroneProfileInput>
  closeTo: string
  submitLabel: string
}) {
  const submitting = useIsPending({ state: 'submitting' })
  const [form, fields] = useForm({
    id: 'drone-form',
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DroneProfileSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onBlur',
    defaultValue: Object.fromEntries(Object.entries(defaults ?? {}).map(([k, v]) => [k, String(v)])),
  })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <Field
        labelProps={{ children: 'Name' }}
        errors={fields.name.errors}
        inputProps={getInputProps(fields.name, { type: 'text' })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {DRONE_PROFILE_FIELDS.map((f) => (
          <Field
            key={f.name}
            labelProps={{ children: `${f.label} (${f.unit})` }}
            errors={fields[f.name].errors}
            inputProps={numberInputProps(fields[f.name], { step: f.step })}
          />
        ))}
      </div>
      <ActiveStatusField name={fields.isActive.name} initialValue={fields.isActive.initialValue} />
      <SaveActions closeTo={closeTo} pending={submitting}>
        {submitLabel}
      </SaveActions>
    </Form>
  )
}
