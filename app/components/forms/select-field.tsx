/** The labelled select, apart from `forms.tsx` so pages without conform (the landing page) do not load it. */
import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import type { SelectHTMLAttributes } from 'react'

import { controlAria, FieldFrame, type FieldShell } from '../forms.tsx'
import { cn } from '../ui/cn.ts'

/**
 * A labelled select. Give a conform `field` (its name, id, value and errors come from conform,
 * as with `TextField`), or plain `selectProps` for a select outside a conform form.
 */
export function SelectField({
  label,
  errors,
  hint,
  className,
  field,
  selectProps,
  options,
  placeholder,
}: FieldShell &
  (
    | { field: FieldMetadata<unknown>; selectProps?: undefined }
    | { field?: undefined; selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string } }
  ) & {
    options: ReadonlyArray<{ value: string; label: string }>
    placeholder?: string
  }) {
  const props: SelectHTMLAttributes<HTMLSelectElement> & { id: string } = field
    ? getSelectProps(field)
    : selectProps
  const shownErrors = field ? field.errors : errors
  const id = props.id
  return (
    <FieldFrame id={id} label={label} errors={shownErrors} hint={hint} className={className}>
      <select {...props} {...controlAria(id, shownErrors, hint)} className={cn('input', props.className)}>
        {placeholder ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  )
}
