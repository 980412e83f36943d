import { Link } from '@remix-run/react'

/**
 * The heading of a page opened from the dashboard (a project's Map view, its survey
 * mission): the way back, the page's title and what it is about (the project's name).
 */
export function PageHeading({ title, subject }: { title: string; subject: string }) {
  return (
    <div>
      <Link to="/dashboard" className="text-sm text-ink-600 hover:underline">
        ← Dashboard
      </Link>
      <h1 className="mt-2 text-2xl font-bold text-ink-950">{title}</h1>
      <p className="text-ink-600">{subject}</p>
    </div>
  )
}
