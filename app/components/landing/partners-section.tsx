/** Our Partners: the flight operator (from the company settings), PayFast and SACAA Part 101. */
import type { ReactNode } from 'react'

import type { FooterCompany } from '../layout/site-footer.tsx'
import { Icon, type IconName } from './icons.tsx'

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
            icon="drone"
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
            icon="card"
            role="Card payment partner"
            name="PayFast"
            detail="Card and instant EFT payments on PayFast's secure hosted page — your card details never touch our servers."
          />
          <PartnerCard
            icon="shield"
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
  icon,
  role,
  name,
  detail,
}: {
  icon: IconName
  role: string
  name: string
  detail: ReactNode
}) {
  return (
    <article className="flex flex-col items-center rounded-2xl border border-ink-100 bg-white p-8 text-center shadow-card">
      <span className="inline-flex h-16 w-16 items-center justify-center rounded-2xl bg-ink-900 text-amber-400 shadow-lg shadow-ink-900/20">
        <Icon name={icon} className="h-8 w-8" />
      </span>
      <p className="mt-5 text-xs font-bold uppercase tracking-[0.2em] text-amber-700">{role}</p>
      <h3 className="mt-1 text-lg font-bold text-ink-950">{name}</h3>
      <p className="mt-2 text-sm leading-relaxed text-ink-600">{detail}</p>
    </article>
  )
}
