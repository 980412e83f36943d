import { Link } from '@remix-run/react'

import { Logo } from './logo.tsx'

export interface FooterCompany {
  legalName: string
  registrationNumber: string
  vatNumber: string
  address: string
  phone: string
  /** `+27 82 123 4567` and its `tel:` link. */
  phoneDisplay: string
  phoneHref: string
  email: string
  operatorName: string
  operatorRocNumber: string
  /** Only while the operator's ROC on record is valid (admin's operator documents). */
  operatorCertified?: boolean
}

/** Footer with the regulatory notice and the operator's certificate number (configuration). */
export function SiteFooter({ company }: { company: FooterCompany }) {
  return (
    <footer className="no-print bg-ink-950 text-ink-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-3">
        <div>
          <Logo light />
          <p className="mt-4 max-w-xs text-sm leading-relaxed text-ink-400">
            Drone mapping and aerial surveying from Cape Town, for farms, building sites and mines across
            South Africa.
          </p>
        </div>
        <div className="text-sm">
          <h2 className="font-semibold uppercase tracking-wider text-white">Company</h2>
          <ul className="mt-3 space-y-1.5 text-ink-400">
            <li>{company.legalName}</li>
            <li>Reg. no. {company.registrationNumber}</li>
            <li>VAT no. {company.vatNumber}</li>
            <li>{company.address}</li>
            <li>
              <a className="hover:text-white" href={`mailto:${company.email}`}>
                {company.email}
              </a>{' '}
              ·{' '}
              <a className="hover:text-white" href={company.phoneHref}>
                {company.phoneDisplay}
              </a>
            </li>
          </ul>
        </div>
        <div className="text-sm">
          <h2 className="font-semibold uppercase tracking-wider text-white">Legal</h2>
          <ul className="mt-3 space-y-1.5">
            <li>
              <Link className="hover:text-white" to="/legal">
                Company information, terms &amp; privacy
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/privacy">
                Privacy notice (POPIA)
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/legal#cancellation">
                Cancellation &amp; refund policy
              </Link>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto max-w-7xl space-y-2 px-4 py-6 text-xs leading-relaxed text-ink-400 sm:px-6">
          {company.operatorCertified ? (
            <p>
              <span className="badge bg-emerald-900/60 text-emerald-200" data-testid="sacaa-certified">
                SACAA-certified operator
              </span>
            </p>
          ) : null}
          <p data-testid="regulatory-notice">
            All flights are conducted by {company.operatorName}, holder of South African Civil Aviation
            Authority Remotely Piloted Aircraft System Operator Certificate{' '}
            <strong className="text-ink-200">{company.operatorRocNumber}</strong>, in compliance with Part 101
            of the Civil Aviation Regulations.
          </p>
          <p>© {new Date().getFullYear()} Kestrel Aerial Survey. All rights reserved.</p>
        </div>
      </div>
    </footer>
  )
}
