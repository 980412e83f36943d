import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import {
  DRONE_PROFILE_FIELDS,
  DroneProfileSchema,
  type DroneProfileInput,
} from '#app/domain/survey/drone-profile-schema.ts'

import { DialogActions } from './ui.tsx'

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
        label="Name"
        errors={fields.name.errors}
        inputProps={getInputProps(fields.name, { type: 'text' })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {DRONE_PROFILE_FIELDS.map((f) => (
          <Field
            key={f.name}
            label={`${f.label} (${f.unit})`}
            errors={fields[f.name].errors}
            inputProps={{
              ...getInputProps(fields[f.name], { type: 'number' }),
              step: f.step,
              inputMode: 'decimal',
            }}
          />
        ))}
      </div>
      <fieldset>
        <legend className="label">Status</legend>
        <div className="flex gap-4 text-sm">
          {[
            ['true', 'Active'],
            ['false', 'Inactive'],
          ].map(([value, label]) => (
            <label key={value} className="inline-flex items-center gap-2">
              <input
                type="radio"
                name={fields.isActive.name}
                value={value}
                defaultChecked={(fields.isActive.initialValue ?? 'true') === value}
                className="h-4 w-4 accent-amber-500"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <DialogActions closeTo={closeTo}>
        <StatusButton pending={submitting} pendingLabel="Saving…">
          {submitLabel}
        </StatusButton>
      </DialogActions>
    </Form>
  )
}
