import { cn } from './cn.ts'

const ICONS = {
  success: {
    circle: 'bg-emerald-100 text-emerald-700',
    path: <path d="M5 12l5 5 9-10" strokeLinejoin="round" />,
  },
  mail: {
    circle: 'bg-emerald-100 text-emerald-700',
    path: (
      <>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="M3 7l9 6 9-6" />
      </>
    ),
  },
  cancelled: { circle: 'bg-amber-100 text-amber-700', path: <path d="M6 6l12 12M18 6 6 18" /> },
  error: { circle: 'bg-red-100 text-red-700', path: <path d="M12 8v5m0 3h.01" /> },
  /** Still waiting (a payment being confirmed): a turning arc. */
  pending: {
    circle: 'bg-amber-100 text-amber-700',
    path: (
      <>
        <circle cx="12" cy="12" r="8" strokeOpacity=".25" />
        <path d="M20 12a8 8 0 0 0-8-8" />
      </>
    ),
  },
} as const

export type OutcomeKind = keyof typeof ICONS

/** The round icon above an outcome heading ("Payment Confirmed", "Invalid Reset Link"), decorative. */
export function OutcomeIcon({ kind }: { kind: OutcomeKind }) {
  const icon = ICONS[kind]
  return (
    <span
      className={cn('mx-auto inline-flex h-14 w-14 items-center justify-center rounded-full', icon.circle)}
      aria-hidden="true"
    >
      <svg
        viewBox="0 0 24 24"
        className={cn('h-7 w-7', kind === 'pending' && 'animate-spin motion-reduce:animate-none')}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
      >
        {icon.path}
      </svg>
    </span>
  )
}
