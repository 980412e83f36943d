/** About Us: mission, expertise, commitment and the company's figures. */
import type { LandingFigures } from '#app/domain/landing/landing-figures.server.ts'

import { Icon, type IconName } from './icons.tsx'
import { SECTION, SectionHeading } from './section-heading.tsx'

const ABOUT_CARDS = [
  {
    icon: 'target' as IconName,
    title: 'Our Mission',
    text: 'To put accurate, affordable aerial data in the hands of every farmer, builder and planner in South Africa — quoted in minutes, not weeks.',
  },
  {
    icon: 'drone' as IconName,
    title: 'Our Expertise',
    text: 'Licensed remote pilots flying survey-grade RTK drones: orthomosaics, elevation models, crop health and volumetrics with centimetre precision.',
  },
  {
    icon: 'handshake' as IconName,
    title: 'Our Commitment',
    text: 'Safe, legal flights under Part 101, honest fixed pricing with VAT shown up front, and a real person to answer when you need one.',
  },
]

/** The company's figures come formatted from the loader (`landingFigures`). */
export function AboutSection({ figures }: { figures: Pick<LandingFigures, 'mainStats' | 'moreStats'> }) {
  return (
    <section id="about" className={`${SECTION} bg-white py-20 sm:py-28`}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading
          eyebrow="About Us"
          title="A bird's-eye view, grounded in Cape Town"
          intro="Kestrel Aerial Survey turns drone flights into decisions. We plan, fly and process every survey with a certified operator, so you get data you can build on."
        />
        <div className="mt-14 grid gap-6 md:grid-cols-3">
          {ABOUT_CARDS.map(({ icon, title, text }) => (
            <article
              key={title}
              className="group rounded-2xl border border-ink-100 bg-ink-50/60 p-7 transition hover:-translate-y-1 hover:border-amber-200 hover:bg-white hover:shadow-card"
            >
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-ink-900 text-amber-400 transition group-hover:bg-amber-500 group-hover:text-ink-950">
                <Icon name={icon} />
              </span>
              <h3 className="mt-5 text-lg font-bold text-ink-950">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-600">{text}</p>
            </article>
          ))}
        </div>
        <div className="mt-16 overflow-hidden rounded-3xl bg-ink-950 px-6 py-10 text-white sm:px-10">
          <dl className="grid gap-8 text-center sm:grid-cols-3" data-testid="about-stats">
            {figures.mainStats.map((s) => (
              <div key={s.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-sm text-ink-300">{s.label}</dt>
                <dd className="text-5xl font-black tracking-tight text-amber-400">{s.value}</dd>
              </div>
            ))}
          </dl>
          <dl className="mt-10 grid grid-cols-3 gap-4 border-t border-white/10 pt-8 text-center">
            {figures.moreStats.map((s) => (
              <div key={s.label} className="flex flex-col-reverse">
                <dt className="mt-0.5 text-xs text-ink-400 sm:text-sm">{s.label}</dt>
                <dd className="text-xl font-bold text-white sm:text-2xl">{s.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
    </section>
  )
}
