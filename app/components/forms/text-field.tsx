/**
 * A labelled text-like input wired to conform (text, e-mail, phone, URL, date): the field's
 * name, id, value and errors come from conform; `inputProps` adds autocomplete, placeholder….
 * The conform twin of `Field`, as `NumberField` is for numbers.
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { Field } from '#app/components/forms.tsx'
import type { InputHTMLAttributes, ReactNode } from 'react'

export function TextField({
  label,
  field,
  type = 'text',
  hint,
  prefix,
  className,
  inputProps,
}: {
  label: ReactNode
  field: FieldMetadata<unknown>
  type?: 'text' | 'email' | 'tel' | 'url' | 'date'
  hint?: ReactNode
  prefix?: ReactNode
  /** Classes for the field's wrapper (its width in a grid). */
  className?: string
  inputProps?: InputHTMLAttributes<HTMLInputElement>
}) {
  return (
    <Field
      label={label}
      hint={hint}
      prefix={prefix}
      className={className}
      errors={field.errors}
      inputProps={{ ...getInputProps(field, { type }), ...inputProps }}
    />
  )
}
