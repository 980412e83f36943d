/** A labelled number input wired to conform: decimals by default (`step="any"`, decimal keypad). */
import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { Field } from '#app/components/forms.tsx'
import type { ReactNode } from 'react'

export function NumberField({
  label,
  field,
  hint,
  step = 'any',
  min,
  max,
  inputMode = 'decimal',
  placeholder,
}: {
  label: ReactNode
  field: FieldMetadata<unknown>
  hint?: ReactNode
  step?: number | string
  min?: number
  max?: number
  /** 'numeric' for whole numbers (a keypad without a decimal separator). */
  inputMode?: 'decimal' | 'numeric'
  placeholder?: string
}) {
  return (
    <Field
      label={label}
      hint={hint}
      errors={field.errors}
      inputProps={{
        ...getInputProps(field, { type: 'number' }),
        step,
        inputMode,
        // Only what is given: the form's zod constraint may already set min and max.
        ...(min === undefined ? null : { min }),
        ...(max === undefined ? null : { max }),
        ...(placeholder === undefined ? null : { placeholder }),
      }}
    />
  )
}
