import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { PasswordField } from '#app/components/forms/password-field.tsx'
import { PersonFields } from '#app/components/forms/person-fields.tsx'
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
        labelProps={{ children: mode === 'create' ? 'Password' : 'New password (leave blank to keep)' }}
        errors={fields.password.errors}
        hint="At least 6 characters"
        inputProps={{
          ...getInputProps(fields.password, { type: 'password' }),
          required: mode === 'create',
          autoComplete: 'new-password',
        }}
      />
      <Field
        labelProps={{ children: 'Service area' }}
        errors={fields.serviceArea.errors}
        hint="e.g. Western Cape, Cape Winelands"
        inputProps={getInputProps(fields.serviceArea, { type: 'text' })}
      />
      <Field
        labelProps={{ children: 'Drone types' }}
        errors={fields.droneTypes.errors}
        hint="Separate several with commas, e.g. DJI Matrice 350 RTK, DJI Mavic 3E"
        inputProps={getInputProps(fields.droneTypes, { type: 'text' })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: 'Pilot license number' }}
          errors={fields.pilotLicenseNumber.errors}
          inputProps={getInputProps(fields.pilotLicenseNumber, { type: 'text' })}
        />
        <Field
          labelProps={{ children: 'Licence URL (optional)' }}
          errors={fields.pilotLicenseUrl.errors}
          hint="http:// or https:// only"
          inputProps={getInputProps(fields.pilotLicenseUrl, { type: 'url' })}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          labelProps={{ children: 'RPL number' }}
          errors={fields.rplNumber.errors}
          inputProps={getInputProps(fields.rplNumber, { type: 'text' })}
        />
        <Field
          labelProps={{ children: 'RPL expires' }}
          errors={fields.rplExpiresAt.errors}
          inputProps={getInputProps(fields.rplExpiresAt, { type: 'date' })}
        />
        <Field
          labelProps={{ children: 'Medical expires' }}
          errors={fields.medicalExpiresAt.errors}
          inputProps={getInputProps(fields.medicalExpiresAt, { type: 'date' })}
        />
      </div>
      <ActiveStatusField name={fields.isActive.name} initialValue={fields.isActive.initialValue} />
      <SaveActions closeTo={closeTo} pending={submitting}>
        {mode === 'create' ? 'Create Pilot' : 'Save Pilot'}
      </SaveActions>
    </Form>
  )
}
