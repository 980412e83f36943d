import type { ReactNode } from 'react'

import { cn } from './cn.ts'

const tones = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  info: 'border-sky-200 bg-sky-50 text-sky-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
}

export function Alert({
  tone = 'error',
  title,
  children,
  id,
  className,
}: {
  tone?: keyof typeof tones
  title?: ReactNode
  children?: ReactNode
  id?: string
  className?: string
}) {
  return (
    <div
      id={id}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('rounded-lg border px-4 py-3 text-sm', tones[tone], className)}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  )
}

/** The form-level errors (not tied to one field) of a conform form, as an alert box. */
export function FormErrors({ id, errors }: { id: string; errors?: Array<string | null | undefined> | null }) {
  const shown = errors?.filter(Boolean)
  if (!shown?.length) return null
  return (
    <Alert tone="error" id={id}>
      {shown.join(' ')}
    </Alert>
  )
}
