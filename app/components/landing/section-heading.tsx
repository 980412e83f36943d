/** The landing page's section heading (eyebrow, title, intro) and section spacing. */
import type { ReactNode } from 'react'

/** Sections sit under the fixed 64 px navigation bar when scrolled to. */
export const SECTION = 'scroll-mt-16'

export function SectionHeading({
  eyebrow,
  title,
  intro,
  light = false,
}: {
  eyebrow: string
  title: ReactNode
  intro?: ReactNode
  light?: boolean
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p
        className={
          light
            ? 'text-xs font-bold uppercase tracking-[0.25em] text-amber-400'
            : 'text-xs font-bold uppercase tracking-[0.25em] text-amber-700'
        }
      >
        {eyebrow}
      </p>
      <h2
        className={
          light
            ? 'mt-3 text-3xl font-black tracking-tight text-white sm:text-4xl'
            : 'mt-3 text-3xl font-black tracking-tight text-ink-950 sm:text-4xl'
        }
      >
        {title}
      </h2>
      {intro ? (
        <p
          className={
            light
              ? 'mt-4 text-base leading-relaxed text-ink-300'
              : 'mt-4 text-base leading-relaxed text-ink-600'
          }
        >
          {intro}
        </p>
      ) : null}
    </div>
  )
}
