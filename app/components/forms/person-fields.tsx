/**
 * A person's first name, last name, e-mail and phone — the same labels, inputs and layout
 * in the admin's user and pilot forms and in every role's Profile tab.
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { Field } from '#app/components/forms.tsx'

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
        <Field
          labelProps={{ children: 'First name' }}
          errors={fields.firstName.errors}
          inputProps={getInputProps(fields.firstName, { type: 'text' })}
        />
        <Field
          labelProps={{ children: 'Last name' }}
          errors={fields.lastName.errors}
          inputProps={getInputProps(fields.lastName, { type: 'text' })}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {readOnlyEmail ? (
          <Field
            labelProps={{ children: 'Email' }}
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
          <Field
            labelProps={{ children: 'Email' }}
            errors={fields.email.errors}
            inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }}
          />
        ) : null}
        <Field
          labelProps={{ children: phoneLabel }}
          errors={fields.phone.errors}
          prefix="+27"
          inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), inputMode: 'tel' }}
        />
      </div>
    </>
  )
}
