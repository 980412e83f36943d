import { Link } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'

/** The short POPIA notice shown where we collect personal information, linking the full notice. */
export function PrivacyNote({ className, children }: { className?: string; children?: React.ReactNode }) {
  return (
    <p className={cn('text-xs leading-relaxed text-ink-500', className)} data-testid="privacy-note">
      {children ??
        'We use the details and survey areas you give us to quote, fly and invoice your survey, and share them only with our flight operator, PayFast and our e-mail and hosting providers.'}{' '}
      <Link to="/privacy" className="link">
        Privacy notice
      </Link>
    </p>
  )
}
