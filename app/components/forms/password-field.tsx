import { useState, type InputHTMLAttributes } from 'react'

import { controlAria, FieldFrame, type FieldShell } from '../forms.tsx'
import { cn } from '../ui/cn.ts'
import { useHydrated } from '../ui/use-hydrated.ts'

/** A password input with a show/hide toggle (the toggle appears once JavaScript runs). */
export function PasswordField(
  props: FieldShell & { inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string } },
) {
  const [visible, setVisible] = useState(false)
  const hydrated = useHydrated()
  const { labelProps, errors, hint, className, inputProps } = props
  const id = inputProps.id
  return (
    <FieldFrame id={id} labelProps={labelProps} errors={errors} hint={hint} className={className}>
      <div className="relative">
        <input
          {...inputProps}
          type={visible ? 'text' : 'password'}
          {...controlAria(id, errors, hint)}
          className={cn('input pr-16', inputProps.className)}
        />
        {hydrated ? (
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            className="absolute inset-y-0 right-0 px-3 text-xs font-semibold text-ink-500 hover:text-ink-800"
            aria-label={visible ? 'Hide password' : 'Show password'}
            aria-pressed={visible}
            aria-controls={id}
          >
            {visible ? 'Hide' : 'Show'}
          </button>
        ) : null}
      </div>
    </FieldFrame>
  )
}
