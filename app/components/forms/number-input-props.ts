/** A number input's props from a conform field, for `Field`: decimals by default (`step="any"`, decimal keypad). */
import { getInputProps, type FieldMetadata } from '@conform-to/react'

export function numberInputProps(
  field: FieldMetadata<unknown>,
  {
    step = 'any',
    inputMode = 'decimal',
    min,
    max,
    placeholder,
  }: {
    step?: number | string
    /** 'numeric' for whole numbers (a keypad without a decimal separator). */
    inputMode?: 'decimal' | 'numeric'
    min?: number
    max?: number
    placeholder?: string
  } = {},
) {
  return {
    ...getInputProps(field, { type: 'number' }),
    step,
    inputMode,
    // Only what is given: the form's zod constraint may already set min and max.
    ...(min === undefined ? null : { min }),
    ...(max === undefined ? null : { max }),
    ...(placeholder === undefined ? null : { placeholder }),
  }
}
