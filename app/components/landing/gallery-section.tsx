/** The gallery: three recent surveys, drawn as SVG scenes (static files, not JavaScript). */
import { Link } from '@remix-run/react'

import agricultureField from '../visuals/agriculture-field.svg'
import coastalMarina from '../visuals/coastal-marina.svg'
import infrastructureDock from '../visuals/infrastructure-dock.svg'
import { Icon } from './icons.tsx'

const PROJECTS = [
  {
    image: agricultureField,
    alt: 'Vegetation health map of a farm field',
    category: 'Agriculture',
    title: 'Agriculture Field Analysis',
    text: 'Multispectral crop-health mapping of a 42 ha vineyard block near Stellenbosch, pinpointing irrigation stress.',
  },
  {
    image: coastalMarina,
    alt: 'Orthomosaic of a coastal marina',
    category: 'Coastal',
    title: 'Coastal Marina Survey',
    text: 'High-resolution orthomosaic and bathymetric context for a marina upgrade on the False Bay coast.',
  },
  {
    image: infrastructureDock,
    alt: 'Inspection survey of a harbour dock',
    category: 'Infrastructure',
    title: 'Infrastructure Dock Analysis',
    text: 'Quay-wall inspection and measurement for a harbour operator, with defects geotagged for the maintenance crew.',
  },
]

/** `tags`: each survey's tags, in PROJECTS' order, formatted by the loader (`landingFigures`). */
export function GallerySection({ signedIn, tags }: { signedIn: boolean; tags: string[][] }) {
  return (
    <section aria-labelledby="gallery-heading" className="bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="flex flex-col items-start justify-between gap-6 sm:flex-row sm:items-end">
          <div>
            <p className="text-xs font-bold uppercase tracking-[0.25em] text-amber-700">Gallery</p>
            <h2
              id="gallery-heading"
              className="mt-3 text-3xl font-black tracking-tight text-ink-950 sm:text-4xl"
            >
              Explore your work
            </h2>
            <p className="mt-3 max-w-xl text-ink-600">A few recent surveys, from vineyards to harbours.</p>
          </div>
          <Link
            to={signedIn ? '/dashboard?tab=projects' : '/login?redirectTo=%2Fdashboard%3Ftab%3Dprojects'}
            className="btn-dark"
          >
            View All Projects
            <Icon name="arrow-right" className="h-4 w-4" />
          </Link>
        </div>
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          {PROJECTS.map(({ image, alt, category, title, text }, index) => (
            <article
              key={title}
              className="group overflow-hidden rounded-2xl border border-ink-100 bg-white shadow-card"
            >
              <div className="relative aspect-[400/260] overflow-hidden">
                <img
                  src={image}
                  alt={alt}
                  width={400}
                  height={260}
                  loading="lazy"
                  className="h-full w-full object-cover transition duration-500 group-hover:scale-105"
                />
                <span className="absolute left-3 top-3 rounded-full bg-ink-950/80 px-2.5 py-1 text-xs font-semibold text-white backdrop-blur">
                  {category}
                </span>
              </div>
              <div className="p-6">
                <h3 className="text-lg font-bold text-ink-950">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-ink-600">{text}</p>
                <ul className="mt-4 flex flex-wrap gap-2">
                  {(tags[index] ?? []).map((t) => (
                    <li key={t} className="badge bg-ink-100 text-ink-700">
                      {t}
                    </li>
                  ))}
                </ul>
              </div>
            </article>
          ))}
        </div>
      </div>
    </section>
  )
}
