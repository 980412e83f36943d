/**
 * The landing page's hero: headline, calls to action and a sample live quote whose
 * figures the loader works out from the settings in force.
 */
import { Link } from '@remix-run/react'
import type { SampleQuote } from '#app/domain/pricing/sample-quote.server.ts'

import aerialHero from '../visuals/aerial-hero.svg'
import { Icon } from './icons.tsx'
import { SECTION } from './section-heading.tsx'

export function Hero({ signedIn, sample }: { signedIn: boolean; sample: SampleQuote }) {
  return (
    <section id="home" className={`${SECTION} relative isolate overflow-hidden bg-ink-950 text-white`}>
      <img src={aerialHero} alt="" className="absolute inset-0 -z-20 h-full w-full opacity-80 object-cover" />
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-ink-950/70 via-ink-950/35 to-ink-950" />
      <div className="absolute inset-0 -z-10 bg-gradient-to-r from-ink-950/90 via-ink-950/40 to-transparent" />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 pb-20 pt-32 sm:px-6 sm:pt-40 lg:min-h-[92vh] lg:grid-cols-[1.15fr_0.85fr] lg:pb-28">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-xs font-semibold uppercase tracking-[0.2em] text-amber-300 backdrop-blur">
            <span className="h-1.5 w-1.5 rounded-full bg-amber-400" aria-hidden="true" />
            Drone mapping · Cape Town
          </p>
          <h1 className="mt-6 text-4xl font-black leading-[1.05] tracking-tight sm:text-6xl lg:text-7xl">
            ELEVATE YOUR VIEW.{' '}
            <span className="block bg-gradient-to-r from-amber-300 to-amber-500 bg-clip-text text-transparent">
              EMPOWER YOUR INSIGHT
            </span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-ink-200">
            Professional drone mapping and aerial surveying for farms, building sites and coastlines across
            South Africa. Draw your site on a satellite map, get an instant quote in rand and book the flight
            online.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <a href="#services" className="btn-primary px-6 py-3 text-base">
              Explore Services
              <Icon name="arrow-down" className="h-5 w-5" />
            </a>
            <Link
              to={signedIn ? '/dashboard' : '/register'}
              className="btn border border-white/25 bg-white/5 px-6 py-3 text-base text-white backdrop-blur hover:bg-white/15"
            >
              {signedIn ? 'Go to your dashboard' : 'Get an instant quote'}
              <Icon name="arrow-right" className="h-5 w-5" />
            </Link>
          </div>
          <ul className="mt-10 flex flex-wrap gap-x-6 gap-y-2 text-sm text-ink-300">
            {['SACAA Part 101 compliant', 'Secure card payments', 'Results in 5–7 business days'].map((t) => (
              <li key={t} className="flex items-center gap-2">
                <Icon name="check" className="h-4 w-4 text-amber-400" />
                {t}
              </li>
            ))}
          </ul>
        </div>
        <QuotePreview sample={sample} />
      </div>
    </section>
  )
}

/** A glimpse of the planner's live quote: the product in one card (figures from the loader). */
function QuotePreview({ sample }: { sample: SampleQuote }) {
  return (
    <div className="relative hidden lg:block" aria-hidden="true">
      <div className="absolute -inset-6 rounded-[2rem] bg-amber-500/10 blur-2xl" />
      <div className="relative rounded-2xl border border-white/10 bg-ink-900/70 p-6 shadow-2xl backdrop-blur-md">
        <div className="flex items-center justify-between">
          <p className="text-sm font-semibold text-white">Live quote</p>
          <span className="rounded-full bg-emerald-500/15 px-2.5 py-0.5 text-xs font-semibold text-emerald-300">
            Clear airspace
          </span>
        </div>
        <div className="mt-5 grid grid-cols-2 gap-3">
          <div className="rounded-xl bg-white/5 p-3">
            <p className="text-xs text-ink-400">Survey area</p>
            <p className="mt-1 text-lg font-bold text-white">{sample.area}</p>
          </div>
          <div className="rounded-xl bg-white/5 p-3">
            <p className="text-xs text-ink-400">Nearest hub</p>
            <p className="mt-1 text-lg font-bold text-white">Cape Town</p>
          </div>
        </div>
        <dl className="mt-5 space-y-2 text-sm">
          {sample.lines.map(([k, v]) => (
            <div key={k} className="flex justify-between text-ink-300">
              <dt>{k}</dt>
              <dd className="tabular-nums">{v}</dd>
            </div>
          ))}
          <div className="flex justify-between border-t border-white/10 pt-3 text-base font-bold text-white">
            <dt>Total</dt>
            <dd className="tabular-nums text-amber-300">{sample.total}</dd>
          </div>
        </dl>
        <div className="mt-5 rounded-xl bg-amber-500 py-2.5 text-center text-sm font-bold text-ink-950">
          Pay Now
        </div>
      </div>
    </div>
  )
}
