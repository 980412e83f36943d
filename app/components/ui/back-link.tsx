import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'

/** The link under a page's card back to where the page was opened from. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="mt-6">
      <Link to={to} className="link">
        {children}
      </Link>
    </p>
  )
}
