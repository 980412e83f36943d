/**
 * A person's first name, last name, e-mail and phone — the same labels, inputs and layout
 * in the admin's user and pilot forms and in every role's Profile tab.
 */
import { type FieldMetadata } from '@conform-to/react'
import { Field } from '#app/components/forms.tsx'
import { TextField } from '#app/components/forms/text-field.tsx'

/** The conform fields of a form with these four inputs (`email` unless it is shown read-only). */
export interface PersonFieldset {
  firstName: FieldMetadata<unknown>
  lastName: FieldMetadata<unknown>
  email?: FieldMetadata<unknown>
  phone: FieldMetadata<unknown>
}

/** An address that is shown but not sent as the form's `email` (the Profile tab's sign-in address). */
export interface ReadOnlyEmail {
  id: string
  name: string
  value: string
  hint: string
}

export function PersonFields({
  fields,
  readOnlyEmail,
  phoneLabel = 'Phone',
}: {
  fields: PersonFieldset
  readOnlyEmail?: ReadOnlyEmail
  phoneLabel?: string
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" field={fields.firstName} />
        <TextField label="Last name" field={fields.lastName} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {readOnlyEmail ? (
          <Field
            label="Email"
            hint={readOnlyEmail.hint}
            inputProps={{
              id: readOnlyEmail.id,
              name: readOnlyEmail.name,
              type: 'email',
              defaultValue: readOnlyEmail.value,
              readOnly: true,
              className: 'bg-ink-50 text-ink-500',
            }}
          />
        ) : fields.email ? (
          <TextField label="Email" field={fields.email} type="email" inputProps={{ autoComplete: 'off' }} />
        ) : null}
        <TextField
          label={phoneLabel}
          field={fields.phone}
          type="tel"
          prefix="+27"
          inputProps={{ inputMode: 'tel' }}
        />
      </div>
    </>
  )
}
