import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { PasswordField } from '#app/components/forms/password-field.tsx'
import { PersonFields } from '#app/components/forms/person-fields.tsx'
import { TextField } from '#app/components/forms/text-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { CreatePilotSchema, UpdatePilotSchema } from '#app/domain/admin/schemas.ts'
import type { NewUser } from '#app/domain/users/users.server.ts'

import { ActiveStatusField, SaveActions } from './ui.tsx'

/** What Edit Pilot fills in: the account's own fields (Create Pilot starts empty). */
export type PilotDefaults = Partial<
  Pick<
    NewUser,
    | 'email'
    | 'firstName'
    | 'lastName'
    | 'phone'
    | 'serviceArea'
    | 'droneTypes'
    | 'pilotLicenseNumber'
    | 'pilotLicenseUrl'
    | 'rplNumber'
    | 'rplExpiresAt'
    | 'medicalExpiresAt'
    | 'isActive'
  >
>

/** The pilot form, for Create Pilot and Edit Pilot: contact details, licence and RPL, status. */
export function PilotForm({
  mode,
  lastResult,
  defaults,
  closeTo,
}: {
  mode: 'create' | 'edit'
  lastResult?: SubmissionResult<string[]>
  defaults?: PilotDefaults
  closeTo: string
}) {
  const submitting = useIsPending({ state: 'submitting' })
  const schema = mode === 'create' ? CreatePilotSchema : UpdatePilotSchema
  const [form, fields] = useForm({
    id: `pilot-form-${mode}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    defaultValue: {
      ...defaults,
      phone: defaults?.phone ?? '',
      rplNumber: defaults?.rplNumber ?? '',
      rplExpiresAt: defaults?.rplExpiresAt ?? '',
      medicalExpiresAt: defaults?.medicalExpiresAt ?? '',
      isActive: defaults?.isActive === false ? 'false' : 'true',
    },
  })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {form.errors?.length ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      <PersonFields fields={fields} />
      <PasswordField
        label={mode === 'create' ? 'Password' : 'New password (leave blank to keep)'}
        errors={fields.password.errors}
        hint="At least 6 characters"
        inputProps={{
          ...getInputProps(fields.password, { type: 'password' }),
          required: mode === 'create',
          autoComplete: 'new-password',
        }}
      />
      <TextField label="Service area" field={fields.serviceArea} hint="e.g. Western Cape, Cape Winelands" />
      <TextField
        label="Drone types"
        field={fields.droneTypes}
        hint="Separate several with commas, e.g. DJI Matrice 350 RTK, DJI Mavic 3E"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Pilot license number" field={fields.pilotLicenseNumber} />
        <TextField
          label="Licence URL (optional)"
          field={fields.pilotLicenseUrl}
          type="url"
          hint="http:// or https:// only"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label="RPL number" field={fields.rplNumber} />
        <TextField label="RPL expires" field={fields.rplExpiresAt} type="date" />
        <TextField label="Medical expires" field={fields.medicalExpiresAt} type="date" />
      </div>
      <ActiveStatusField name={fields.isActive.name} initialValue={fields.isActive.initialValue} />
      <SaveActions closeTo={closeTo} pending={submitting}>
        {mode === 'create' ? 'Create Pilot' : 'Save Pilot'}
      </SaveActions>
    </Form>
  )
}
