import type { MetaFunction } from '@remix-run/node'
import { ErrorScreen } from '#app/components/layout/error-boundary.tsx'

export const meta: MetaFunction = () => [{ title: 'Page not found · Kestrel Aerial Survey' }]

/** Anything no other route matches: a 404 page (with the right status code). */
export async function loader() {
  throw new Response('Not Found', { status: 404 })
}

export default function NotFound() {
  return <NotFoundScreen />
}

export function ErrorBoundary() {
  return <NotFoundScreen />
}

function NotFoundScreen() {
  return (
    <ErrorScreen
      code="404"
      title="Page not found"
      message="This page has flown off the map. Check the address, or head back to familiar ground."
    />
  )
}
