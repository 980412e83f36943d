/** The one status badge: a project's status, or an invoice's / payment's with `payment`. */
import { paymentBadge, statusBadge } from '#app/domain/projects/status.ts'

import { cn } from './cn.ts'

export function StatusBadge({
  status,
  payment = false,
  className,
}: {
  status: string
  payment?: boolean
  className?: string
}) {
  const badge = payment ? paymentBadge(status) : statusBadge(status)
  return <span className={cn('badge', badge.className, className)}>{badge.label}</span>
}
