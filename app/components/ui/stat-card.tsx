import type { ReactNode } from 'react'

import { cn } from './cn.ts'

export function StatCard({
  label,
  value,
  hint,
  icon,
  className,
}: {
  label: string
  value: ReactNode
  hint?: string
  icon?: ReactNode
  className?: string
}) {
  return (
    <div className={cn('card flex items-start justify-between gap-4 p-5', className)}>
      <div>
        <p className="text-sm font-medium text-ink-500">{label}</p>
        <p className="mt-1 text-2xl font-bold tracking-tight text-ink-950">{value}</p>
        {hint ? <p className="mt-1 text-xs text-ink-500">{hint}</p> : null}
      </div>
      {icon ? <div className="rounded-xl bg-amber-50 p-2.5 text-amber-700">{icon}</div> : null}
    </div>
  )
}
