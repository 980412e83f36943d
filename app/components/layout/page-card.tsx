import type { ReactNode } from 'react'

import { cn } from '../ui/cn.ts'

const ICONS = {
  success: <path d="M5 12l5 5 9-10" />,
  error: <path d="M12 7v6M12 17h0M4 20h16L12 4z" />,
  mail: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </>
  ),
}

/**
 * The one card of the single-task pages (sign in, register, reset, delete the account,
 * unsubscribe, cancel a project): its heading, an optional line under it, then the form.
 * With `icon` it is an outcome screen ("Check Your Email", "Invalid Reset Link"): centred,
 * the icon above the heading.
 */
export function PageCard({
  title,
  description,
  icon,
  children,
}: {
  title: ReactNode
  description?: ReactNode
  icon?: keyof typeof ICONS
  children?: ReactNode
}) {
  return (
    <div className={cn('card p-6 sm:p-8', icon && 'text-center')}>
      {icon ? (
        <span
          className={cn(
            'mx-auto inline-flex h-14 w-14 items-center justify-center rounded-full',
            icon === 'error' ? 'bg-red-100 text-red-700' : 'bg-emerald-100 text-emerald-700',
          )}
          aria-hidden="true"
        >
          <svg
            viewBox="0 0 24 24"
            className="h-7 w-7"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          >
            {ICONS[icon]}
          </svg>
        </span>
      ) : null}
      <h1 className={cn('text-2xl font-bold tracking-tight text-ink-950', icon && 'mt-4')}>{title}</h1>
      {description ? (
        <p className={cn('text-sm text-ink-500', icon ? 'mt-3 leading-relaxed text-ink-600' : 'mt-1')}>
          {description}
        </p>
      ) : null}
      {children}
    </div>
  )
}
