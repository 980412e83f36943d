/**
 * The marketing sections of the landing page (spec section 2 "Landing page"), in
 * order: hero, About Us, Services, the four steps, the gallery and the partners.
 */
import { Link } from '@remix-run/react'
import { formatHectares, formatRand } from '#app/domain/format/numbers.ts'
import { randToCents, roundHalfAwayFromZero } from '#app/domain/pricing/quote.ts'
import { vatLabel } from '#app/domain/pricing/vat.ts'
import type { ReactNode } from 'react'

import type { FooterCompany } from '../layout/site-footer.tsx'
import { AerialHero } from '../visuals/aerial-hero.tsx'
import {
  AgricultureFieldScene,
  CoastalMarinaScene,
  InfrastructureDockScene,
} from '../visuals/survey-scenes.tsx'
import {
  ArrowDownIcon,
  ArrowRightIcon,
  CalculatorIcon,
  CalendarIcon,
  CardIcon,
  CheckIcon,
  DownloadIcon,
  DroneIcon,
  HandshakeIcon,
  MapIcon,
  PolygonIcon,
  ReportIcon,
  ShieldIcon,
  TagIcon,
  TargetIcon,
} from './icons.tsx'

/** Sections sit under the fixed 64 px navigation bar when scrolled to. */
const SECTION = 'scroll-mt-16'

function SectionHeading({
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

export function Hero({ signedIn, pricing }: { signedIn: boolean; pricing: HeroPricing }) {
  return (
    <section id="home" className={`${SECTION} relative isolate overflow-hidden bg-ink-950 text-white`}>
      <AerialHero className="absolute inset-0 -z-20 h-full w-full opacity-80" />
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
              <ArrowDownIcon className="h-5 w-5" />
            </a>
            <Link
              to={signedIn ? '/dashboard' : '/register'}
              className="btn border border-white/25 bg-white/5 px-6 py-3 text-base text-white backdrop-blur hover:bg-white/15"
            >
              {signedIn ? 'Go to your dashboard' : 'Get an instant quote'}
              <ArrowRightIcon className="h-5 w-5" />
            </Link>
          </div>
          <ul className="mt-10 flex flex-wrap gap-x-6 gap-y-2 text-sm text-ink-300">
            {['SACAA Part 101 compliant', 'Secure card payments', 'Results in 5–7 business days'].map((t) => (
              <li key={t} className="flex items-center gap-2">
                <CheckIcon className="h-4 w-4 text-amber-400" />
                {t}
              </li>
            ))}
          </ul>
        </div>
        <QuotePreview pricing={pricing} />
      </div>
    </section>
  )
}

/** A glimpse of the planner's live quote: the product in one card. */
interface HeroPricing {
  vatRate: number
  /** Rand. */
  localTravelFee: number
}

/** The sample quote's area price, in cents; travel and VAT come from the settings. */
const SAMPLE_AREA_PRICE = 744_000

function QuotePreview({ pricing }: { pricing: HeroPricing }) {
  const travel = randToCents(pricing.localTravelFee)
  const vat = roundHalfAwayFromZero(((SAMPLE_AREA_PRICE + travel) * pricing.vatRate) / 100)
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
            <p className="mt-1 text-lg font-bold text-white">{formatHectares(124_000)}</p>
          </div>
          <div className="rounded-xl bg-white/5 p-3">
            <p className="text-xs text-ink-400">Nearest hub</p>
            <p className="mt-1 text-lg font-bold text-white">Cape Town</p>
          </div>
        </div>
        <dl className="mt-5 space-y-2 text-sm">
          {[
            ['Area survey', formatRand(SAMPLE_AREA_PRICE)],
            ['Travel fee', formatRand(travel)],
            [vatLabel(pricing.vatRate), formatRand(vat)],
          ].map(([k, v]) => (
            <div key={k} className="flex justify-between text-ink-300">
              <dt>{k}</dt>
              <dd className="tabular-nums">{v}</dd>
            </div>
          ))}
          <div className="flex justify-between border-t border-white/10 pt-3 text-base font-bold text-white">
            <dt>Total</dt>
            <dd className="tabular-nums text-amber-300">{formatRand(SAMPLE_AREA_PRICE + travel + vat)}</dd>
          </div>
        </dl>
        <div className="mt-5 rounded-xl bg-amber-500 py-2.5 text-center text-sm font-bold text-ink-950">
          Pay Now
        </div>
      </div>
    </div>
  )
}

const ABOUT_CARDS = [
  {
    icon: TargetIcon,
    title: 'Our Mission',
    text: 'To put accurate, affordable aerial data in the hands of every farmer, builder and planner in South Africa — quoted in minutes, not weeks.',
  },
  {
    icon: DroneIcon,
    title: 'Our Expertise',
    text: 'Licensed remote pilots flying survey-grade RTK drones: orthomosaics, elevation models, crop health and volumetrics with centimetre precision.',
  },
  {
    icon: HandshakeIcon,
    title: 'Our Commitment',
    text: 'Safe, legal flights under Part 101, honest fixed pricing with VAT shown up front, and a real person to answer when you need one.',
  },
]

const MAIN_STATS = [
  { value: '5+', label: 'Years of experience' },
  { value: '1000+', label: 'Flights completed' },
  { value: '50+', label: 'Happy clients' },
]
const MORE_STATS = [
  { value: '500+', label: 'Projects delivered' },
  { value: '99.9%', label: 'Data accuracy' },
  { value: '24/7', label: 'Support' },
]

export function AboutSection() {
  return (
    <section id="about" className={`${SECTION} bg-white py-20 sm:py-28`}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading
          eyebrow="About Us"
          title="A bird's-eye view, grounded in Cape Town"
          intro="Kestrel Aerial Survey turns drone flights into decisions. We plan, fly and process every survey with a certified operator, so you get data you can build on."
        />
        <div className="mt-14 grid gap-6 md:grid-cols-3">
          {ABOUT_CARDS.map(({ icon: Icon, title, text }) => (
            <article
              key={title}
              className="group rounded-2xl border border-ink-100 bg-ink-50/60 p-7 transition hover:-translate-y-1 hover:border-amber-200 hover:bg-white hover:shadow-card"
            >
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-ink-900 text-amber-400 transition group-hover:bg-amber-500 group-hover:text-ink-950">
                <Icon />
              </span>
              <h3 className="mt-5 text-lg font-bold text-ink-950">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-600">{text}</p>
            </article>
          ))}
        </div>
        <div className="mt-16 overflow-hidden rounded-3xl bg-ink-950 px-6 py-10 text-white sm:px-10">
          <dl className="grid gap-8 text-center sm:grid-cols-3" data-testid="about-stats">
            {MAIN_STATS.map((s) => (
              <div key={s.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-sm text-ink-300">{s.label}</dt>
                <dd className="text-5xl font-black tracking-tight text-amber-400">{s.value}</dd>
              </div>
            ))}
          </dl>
          <dl className="mt-10 grid grid-cols-3 gap-4 border-t border-white/10 pt-8 text-center">
            {MORE_STATS.map((s) => (
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

const SERVICES = [
  {
    icon: MapIcon,
    title: 'Customized Survey & Mapping',
    text: 'Flight plans shaped to your site and purpose, from a single erf to thousands of hectares.',
    points: [
      'Orthomosaics and 3D models',
      'Topographic and contour surveys',
      'Construction progress monitoring',
    ],
  },
  {
    icon: TagIcon,
    title: 'Transparent & Budget-Friendly Pricing',
    text: 'An instant quote from the area you draw and your distance from our hubs — no call-backs, no hidden fees.',
    points: ['Prices in rand with VAT shown', 'Travel and airspace fees itemised', 'Secure online payment'],
  },
  {
    icon: ReportIcon,
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
          {SERVICES.map(({ icon: Icon, title, text, points }, index) => (
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
                <Icon />
              </span>
              <h3 className="mt-5 text-lg font-bold text-ink-950">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-600">{text}</p>
              <ul className="mt-5 space-y-2 text-sm text-ink-700">
                {points.map((p) => (
                  <li key={p} className="flex items-start gap-2">
                    <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-amber-700" />
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

const STEPS = [
  {
    icon: PolygonIcon,
    title: 'Choose your area',
    text: 'Draw your site on an interactive satellite map — one area or several.',
  },
  {
    icon: CalculatorIcon,
    title: 'See an instant estimate',
    text: 'Your cost is calculated on the spot from the area and the report type.',
  },
  {
    icon: CalendarIcon,
    title: 'Set a date and time',
    text: 'Pick your preferred deadline; we schedule the flight and the pilot.',
  },
  {
    icon: DownloadIcon,
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
          {STEPS.map(({ icon: Icon, title, text }, index) => (
            <li
              key={title}
              className="relative rounded-2xl border border-white/10 bg-white/[0.04] p-6 backdrop-blur"
            >
              <div className="flex items-center gap-3">
                <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-amber-500 text-lg font-black text-ink-950">
                  {index + 1}
                </span>
                <Icon className="h-6 w-6 text-amber-300" />
              </div>
              <h3 className="mt-5 text-lg font-bold">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-300">{text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-12 text-center">
          <Link to={signedIn ? '/dashboard' : '/register'} className="btn-primary px-6 py-3 text-base">
            {signedIn ? 'Plan a survey' : 'Create a free account'}
            <ArrowRightIcon className="h-5 w-5" />
          </Link>
        </div>
      </div>
    </section>
  )
}

const PROJECTS = [
  {
    Scene: AgricultureFieldScene,
    category: 'Agriculture',
    title: 'Agriculture Field Analysis',
    text: 'Multispectral crop-health mapping of a 42 ha vineyard block near Stellenbosch, pinpointing irrigation stress.',
    tags: ['NDVI', 'Orthomosaic', '42.6 ha'],
  },
  {
    Scene: CoastalMarinaScene,
    category: 'Coastal',
    title: 'Coastal Marina Survey',
    text: 'High-resolution orthomosaic and bathymetric context for a marina upgrade on the False Bay coast.',
    tags: ['2.1 cm GSD', 'Topography', '5.4 ha'],
  },
  {
    Scene: InfrastructureDockScene,
    category: 'Infrastructure',
    title: 'Infrastructure Dock Analysis',
    text: 'Quay-wall inspection and measurement for a harbour operator, with defects geotagged for the maintenance crew.',
    tags: ['Inspection', '3D model', 'Measurements'],
  },
]

export function GallerySection({ signedIn }: { signedIn: boolean }) {
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
            <ArrowRightIcon className="h-4 w-4" />
          </Link>
        </div>
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          {PROJECTS.map(({ Scene, category, title, text, tags }) => (
            <article
              key={title}
              className="group overflow-hidden rounded-2xl border border-ink-100 bg-white shadow-card"
            >
              <div className="relative aspect-[400/260] overflow-hidden">
                <Scene className="h-full w-full transition duration-500 group-hover:scale-105" />
                <span className="absolute left-3 top-3 rounded-full bg-ink-950/80 px-2.5 py-1 text-xs font-semibold text-white backdrop-blur">
                  {category}
                </span>
              </div>
              <div className="p-6">
                <h3 className="text-lg font-bold text-ink-950">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-ink-600">{text}</p>
                <ul className="mt-4 flex flex-wrap gap-2">
                  {tags.map((t) => (
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

export function PartnersSection({ company }: { company: FooterCompany }) {
  return (
    <section aria-labelledby="partners-heading" className="border-y border-ink-100 bg-ink-50 py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-xs font-bold uppercase tracking-[0.25em] text-amber-700">Trusted partners</p>
          <h2
            id="partners-heading"
            className="mt-3 text-3xl font-black tracking-tight text-ink-950 sm:text-4xl"
          >
            Our Partners
          </h2>
          <p className="mt-4 text-ink-600">
            Certified flying, secure payments and full regulatory compliance behind every survey.
          </p>
        </div>
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          <PartnerCard
            mark={<OperatorMark />}
            role={
              company.operatorCertified ? 'Flight operator · SACAA-certified operator' : 'Flight operator'
            }
            name={company.operatorName}
            detail={
              <>
                SACAA RPAS Operator Certificate{' '}
                <strong className="font-semibold text-ink-800">{company.operatorRocNumber}</strong>
              </>
            }
          />
          <PartnerCard
            mark={<PaymentMark />}
            role="Card payment partner"
            name="PayFast"
            detail="Card and instant EFT payments on PayFast's secure hosted page — your card details never touch our servers."
          />
          <PartnerCard
            mark={<ComplianceMark />}
            role="Regulatory compliance"
            name="SACAA Part 101"
            detail="Every flight follows Part 101 of the South African Civil Aviation Regulations, with airspace checks on each quote."
          />
        </div>
      </div>
    </section>
  )
}

function PartnerCard({
  mark,
  role,
  name,
  detail,
}: {
  mark: ReactNode
  role: string
  name: string
  detail: ReactNode
}) {
  return (
    <article className="flex flex-col items-center rounded-2xl border border-ink-100 bg-white p-8 text-center shadow-card">
      {mark}
      <p className="mt-5 text-xs font-bold uppercase tracking-[0.2em] text-amber-700">{role}</p>
      <h3 className="mt-1 text-lg font-bold text-ink-950">{name}</h3>
      <p className="mt-2 text-sm leading-relaxed text-ink-600">{detail}</p>
    </article>
  )
}

function MarkFrame({ children }: { children: ReactNode }) {
  return (
    <span className="inline-flex h-16 w-16 items-center justify-center rounded-2xl bg-ink-900 text-amber-400 shadow-lg shadow-ink-900/20">
      {children}
    </span>
  )
}
const OperatorMark = () => (
  <MarkFrame>
    <DroneIcon className="h-8 w-8" />
  </MarkFrame>
)
const PaymentMark = () => (
  <MarkFrame>
    <CardIcon className="h-8 w-8" />
  </MarkFrame>
)
const ComplianceMark = () => (
  <MarkFrame>
    <ShieldIcon className="h-8 w-8" />
  </MarkFrame>
)
