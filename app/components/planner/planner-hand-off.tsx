import { Link, useNavigate } from '@remix-run/react'
import { PAYMENT_PROJECT_KEY, PLANNER_PROJECT_KEY } from '#app/components/dashboard/client/projects-tab.tsx'
import { useEffect } from 'react'

/** /flight-planner without an id: read the sessionStorage entry, or go back to the dashboard. */
export function PlannerHandOff({ payment }: { payment: boolean }) {
  const navigate = useNavigate()
  useEffect(() => {
    let id: number | null = null
    try {
      const stored = JSON.parse(
        sessionStorage.getItem(payment ? PAYMENT_PROJECT_KEY : PLANNER_PROJECT_KEY) ?? 'null',
      ) as { id?: unknown } | null
      if (stored && Number.isInteger(stored.id)) id = stored.id as number
    } catch {
      id = null
    }
    navigate(id ? `/flight-planner?projectId=${id}${payment ? '&view=quote' : ''}` : '/dashboard', {
      replace: true,
    })
  }, [navigate, payment])
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <noscript>
        <meta httpEquiv="refresh" content="0; url=/dashboard" />
      </noscript>
      <p className="text-ink-600">Opening your project…</p>
      <Link to="/dashboard" className="link mt-4 inline-block">
        Back to the dashboard
      </Link>
    </main>
  )
}
