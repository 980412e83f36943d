/**
 * What a person sees when something fails: a friendly message and a way home. Never a
 * stack trace (Remix strips server errors in production; we never print `stack`).
 */
import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react'

import { LogoMark } from './logo.tsx'

export function GeneralErrorBoundary() {
  const error = useRouteError()
  let title = 'Something went wrong'
  let message = 'An unexpected error occurred. Please try again in a moment.'
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = 'Page not found'
      message = "We couldn't find the page you were looking for."
    } else if (error.status === 403) {
      title = 'Access denied'
      message =
        typeof error.data === 'string' && error.data
          ? error.data
          : typeof error.data?.error === 'string'
            ? error.data.error
            : 'You do not have access to this page.'
    } else {
      title = `${error.status} ${error.statusText || 'Error'}`
      message =
        typeof error.data === 'string' && error.data
          ? error.data
          : typeof error.data?.error === 'string'
            ? error.data.error
            : message
    }
  }
  return <ErrorScreen title={title} message={message} />
}

export function ErrorScreen({ title, message, code }: { title: string; message: string; code?: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-ink-950 px-4 text-center text-white">
      <div className="max-w-md">
        <LogoMark className="mx-auto h-14 w-14" />
        {code ? <p className="mt-6 text-6xl font-black tracking-tight text-amber-400">{code}</p> : null}
        <h1 className="mt-4 text-2xl font-bold">{title}</h1>
        <p className="mt-3 text-ink-300">{message}</p>
        <div className="mt-8 flex justify-center gap-3">
          <Link to="/" className="btn-primary">
            Back to home
          </Link>
          <Link to="/dashboard" className="btn border border-white/20 text-white hover:bg-white/10">
            Dashboard
          </Link>
        </div>
      </div>
    </main>
  )
}
