/**
 * Form fields: label, input, hint and error list with the right ids and aria attributes,
 * so every form is accessible and reads the same. No conform import here: the landing
 * page's contact form uses these, and conform would add ~10 KiB to its JavaScript (the
 * conform-wired select is `forms/select-field.tsx`, the password field `forms/password-field.tsx`).
 */
import type { InputHTMLAttributes, LabelHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react'

import { cn } from './ui/cn.ts'

export type ListOfErrors = Array<string | null | undefined> | null | undefined

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean)
  if (!shown?.length) return null
  return (
    <ul id={id} className="mt-1.5 space-y-0.5">
      {shown.map((e) => (
        <li key={e} className="text-xs font-medium text-red-600">
          {e}
        </li>
      ))}
    </ul>
  )
}

/**
 * The one props shape of every field component (as the Epic Stack's `Field`): `labelProps`
 * (its `children` is the label), the control's props (`inputProps`, `textareaProps` or
 * `selectProps`, with an `id`), `errors`, `className` for the wrapper, and an optional hint.
 */
export interface FieldShell {
  labelProps: LabelHTMLAttributes<HTMLLabelElement> & { children: ReactNode }
  errors?: ListOfErrors
  hint?: ReactNode
  className?: string
  /** Something rendered inside the input row before the input (e.g. "+27"). */
  prefix?: ReactNode
}

function describedBy(id: string | undefined, errors: ListOfErrors, hint: ReactNode) {
  const ids = [errors?.filter(Boolean).length ? `${id}-error` : null, hint ? `${id}-hint` : null]
  return ids.filter(Boolean).join(' ') || undefined
}

/** The control's aria attributes: invalid while it has errors, described by its hint and errors. */
export function controlAria(id: string, errors: ListOfErrors, hint: ReactNode) {
  return {
    'aria-invalid': Boolean(errors?.filter(Boolean).length) || undefined,
    'aria-describedby': describedBy(id, errors, hint),
  }
}

/** What every field shares around its control: the label above, the hint and the errors below. */
export function FieldFrame({
  id,
  labelProps,
  errors,
  hint,
  className,
  children,
}: Omit<FieldShell, 'prefix'> & { id: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} {...labelProps} className={cn('label', labelProps.className)}>
        {labelProps.children}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-ink-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  )
}

export function Field({
  labelProps,
  errors,
  hint,
  className,
  prefix,
  inputProps,
}: FieldShell & { inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string } }) {
  const id = inputProps.id
  return (
    <FieldFrame id={id} labelProps={labelProps} errors={errors} hint={hint} className={className}>
      <div className={prefix ? 'flex' : undefined}>
        {prefix ? (
          <span className="inline-flex items-center rounded-l-lg border border-r-0 border-ink-200 bg-ink-50 px-3 text-sm text-ink-600">
            {prefix}
          </span>
        ) : null}
        <input
          {...inputProps}
          {...controlAria(id, errors, hint)}
          className={cn('input', prefix ? 'rounded-l-none' : undefined, inputProps.className)}
        />
      </div>
    </FieldFrame>
  )
}

export function TextareaField({
  labelProps,
  errors,
  hint,
  className,
  textareaProps,
}: FieldShell & { textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string } }) {
  const id = textareaProps.id
  return (
    <FieldFrame id={id} labelProps={labelProps} errors={errors} hint={hint} className={className}>
      <textarea
        {...textareaProps}
        {...controlAria(id, errors, hint)}
        className={cn('input', textareaProps.className)}
      />
    </FieldFrame>
  )
}
