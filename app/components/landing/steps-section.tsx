/** How it works: the four steps from drawing a site to downloading the results. */
import { Link } from '@remix-run/react'

import { Icon, type IconName } from './icons.tsx'

const STEPS = [
  {
    icon: 'polygon' as IconName,
    title: 'Choose your area',
    text: 'Draw your site on an interactive satellite map — one area or several.',
  },
  {
    icon: 'calculator' as IconName,
    title: 'See an instant estimate',
    text: 'Your cost is calculated on the spot from the area and the report type.',
  },
  {
    icon: 'calendar' as IconName,
    title: 'Set a date and time',
    text: 'Pick your preferred deadline; we schedule the flight and the pilot.',
  },
  {
    icon: 'download' as IconName,
    title: 'Receive your results',
    text: 'Download processed maps, models and reports from your dashboard.',
  },
]

export function StepsSection({ signedIn }: { signedIn: boolean }) {
  return (
    <section
      aria-labelledby="steps-heading"
      className="relative overflow-hidden bg-ink-950 py-20 text-white sm:py-28"
    >
      <div
        className="pointer-events-none absolute inset-0 opacity-[0.07] [background-image:linear-gradient(#fff_1px,transparent_1px),linear-gradient(90deg,#fff_1px,transparent_1px)] [background-size:48px_48px]"
        aria-hidden="true"
      />
      <div className="relative mx-auto max-w-7xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-xs font-bold uppercase tracking-[0.25em] text-amber-400">How it works</p>
          <h2 id="steps-heading" className="mt-3 text-3xl font-black tracking-tight sm:text-4xl">
            Get started in just few clicks
          </h2>
        </div>
        <ol className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(({ icon, title, text }, index) => (
            <li
              key={title}
              className="relative rounded-2xl border border-white/10 bg-white/[0.04] p-6 backdrop-blur"
            >
              <div className="flex items-center gap-3">
                <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-amber-500 text-lg font-black text-ink-950">
                  {index + 1}
                </span>
                <Icon name={icon} className="h-6 w-6 text-amber-300" />
              </div>
              <h3 className="mt-5 text-lg font-bold">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-300">{text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-12 text-center">
          <Link to={signedIn ? '/dashboard' : '/register'} className="btn-primary px-6 py-3 text-base">
            {signedIn ? 'Plan a survey' : 'Create a free account'}
            <Icon name="arrow-right" className="h-5 w-5" />
          </Link>
        </div>
      </div>
    </section>
  )
}
