import { getInputProps, type FieldMetadata } from '@conform-to/react'

import { PasswordField } from './password-field.tsx'

/**
 * A new password and its confirmation (register, reset, the admin's set-password dialog):
 * "Password" / "Confirm password", or "New password" / "Confirm new password". Kept out of
 * `forms.tsx`, which the landing page imports without conform.
 */
export function NewPasswordFields({
  password,
  confirmPassword,
  label = 'Password',
  hint,
}: {
  password: FieldMetadata<string>
  confirmPassword: FieldMetadata<string>
  label?: 'Password' | 'New password'
  hint?: string
}) {
  return (
    <>
      <PasswordField
        labelProps={{ children: label }}
        hint={hint}
        errors={password.errors}
        inputProps={{ ...getInputProps(password, { type: 'password' }), autoComplete: 'new-password' }}
      />
      <PasswordField
        labelProps={{ children: `Confirm ${label.toLowerCase()}` }}
        errors={confirmPassword.errors}
        inputProps={{ ...getInputProps(confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
      />
    </>
  )
}
