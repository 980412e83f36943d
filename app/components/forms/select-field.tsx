/** The labelled select, apart from `forms.tsx` so the landing page's form shares its file without it. */
import type { SelectHTMLAttributes } from 'react'

import { controlAria, FieldFrame, type FieldShell } from '../forms.tsx'
import { cn } from '../ui/cn.ts'

/** A labelled select: the same props as `Field`, with `selectProps` (conform's `getSelectProps(field)` or plain). */
export function SelectField({
  labelProps,
  errors,
  hint,
  className,
  selectProps,
  options,
  placeholder,
}: Omit<FieldShell, 'prefix'> & {
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string }
  options: ReadonlyArray<{ value: string; label: string }>
  placeholder?: string
}) {
  const id = selectProps.id
  return (
    <FieldFrame id={id} labelProps={labelProps} errors={errors} hint={hint} className={className}>
      <select
        {...selectProps}
        {...controlAria(id, errors, hint)}
        className={cn('input', selectProps.className)}
      >
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
