/** The Kestrel mark: a stylised falcon in a stoop over a survey grid. */
export function LogoMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" className={className} aria-hidden="true">
      <rect width="48" height="48" rx="12" fill="#111827" />
      <path d="M8 34h32M8 28h32M14 20v20M24 20v20M34 20v20" stroke="#3a4e70" strokeWidth="1.2" />
      <path
        d="M24 8c-3 5-9 8-16 9 5 2 10 2 13 1l-3 9 6-6 6 6-3-9c3 1 8 1 13-1-7-1-13-4-16-9z"
        fill="#fb9f24"
      />
    </svg>
  )
}

/** `inkClassName` replaces the light/dark text colour (the landing header animates it). */
export function Logo({ light = false, inkClassName }: { light?: boolean; inkClassName?: string }) {
  return (
    <span className="flex items-center gap-2.5">
      <LogoMark />
      <span className={inkClassName ?? (light ? 'text-white' : 'text-ink-900')}>
        <span className="block text-base font-extrabold leading-none tracking-[0.18em]">KESTREL</span>{' '}
        <span className="block text-[10px] font-medium uppercase leading-tight tracking-[0.3em] opacity-70">
          Aerial Survey
        </span>
      </span>
    </span>
  )
}
