import type { ButtonHTMLAttributes, ReactNode } from 'react'

import { cn } from './cn.ts'

/**
 * What a button does, as it looks: `primary` (the page's one main action), `secondary` (saves and
 * other ordinary steps), `danger` (deletes, revokes, cancels for good: solid red) and
 * `danger-quiet` (the same in a list row, outlined red, usually leading to a confirmation).
 */
const BUTTON_VARIANTS = {
  primary: 'btn-primary',
  secondary: 'btn-secondary',
  danger: 'btn-danger',
  'danger-quiet': 'btn-danger-quiet',
} as const
type ButtonVariant = keyof typeof BUTTON_VARIANTS

/** A submit button that shows a busy label while its form is pending. */
export function StatusButton({
  pending,
  pendingLabel,
  children,
  className,
  disabled,
  variant = 'primary',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  pending: boolean
  pendingLabel: ReactNode
  variant?: ButtonVariant
}) {
  return (
    <button
      type="submit"
      {...props}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      data-variant={variant}
      className={cn(BUTTON_VARIANTS[variant], className)}
    >
      {pending ? (
        <>
          <Spinner />
          {pendingLabel}
        </>
      ) : (
        children
      )}
    </button>
  )
}

export function Spinner({ className }: { className?: string }) {
  return (
    <svg className={cn('h-4 w-4 animate-spin', className)} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity=".25" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  )
}
