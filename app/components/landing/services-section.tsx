/** Services: the three offerings, each with what it delivers. */
import { Icon, type IconName } from './icons.tsx'
import { SECTION, SectionHeading } from './section-heading.tsx'

const SERVICES = [
  {
    icon: 'map' as IconName,
    title: 'Customized Survey & Mapping',
    text: 'Flight plans shaped to your site and purpose, from a single erf to thousands of hectares.',
    points: [
      'Orthomosaics and 3D models',
      'Topographic and contour surveys',
      'Construction progress monitoring',
    ],
  },
  {
    icon: 'tag' as IconName,
    title: 'Transparent & Budget-Friendly Pricing',
    text: 'An instant quote from the area you draw and your distance from our hubs — no call-backs, no hidden fees.',
    points: ['Prices in rand with VAT shown', 'Travel and airspace fees itemised', 'Secure online payment'],
  },
  {
    icon: 'report' as IconName,
    title: 'Detailed Reports & Analysis',
    text: 'Processed deliverables your team can use straight away, in the formats your tools expect.',
    points: [
      'Crop health (NDVI) analysis',
      'Stockpile volumes and measurements',
      'GIS-ready GeoTIFF, KML and CSV',
    ],
  },
]

export function ServicesSection() {
  return (
    <section id="services" className={`${SECTION} bg-ink-50 py-20 sm:py-28`}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading
          eyebrow="Services"
          title="Everything you need from the sky"
          intro="Agricultural mapping, construction site monitoring and topographical surveys — planned online and flown by certified pilots."
        />
        <div className="mt-14 grid gap-6 lg:grid-cols-3">
          {SERVICES.map(({ icon, title, text, points }, index) => (
            <article
              key={title}
              className="relative flex flex-col overflow-hidden rounded-2xl border border-ink-100 bg-white p-7 shadow-card"
            >
              {/* A decorative numeral, drawn by CSS so it is not read or checked as text. */}
              <span
                className="absolute right-6 top-5 text-5xl font-black text-ink-100 before:content-[attr(data-numeral)]"
                data-numeral={`0${index + 1}`}
                aria-hidden="true"
              />
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-amber-100 text-amber-700">
                <Icon name={icon} />
              </span>
              <h3 className="mt-5 text-lg font-bold text-ink-950">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-600">{text}</p>
              <ul className="mt-5 space-y-2 text-sm text-ink-700">
                {points.map((p) => (
                  <li key={p} className="flex items-start gap-2">
                    <Icon name="check" className="mt-0.5 h-4 w-4 shrink-0 text-amber-700" />
                    {p}
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </div>
    </section>
  )
}
