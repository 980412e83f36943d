import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteLoaderData,
} from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'
import { HoneypotProvider } from 'remix-utils/honeypot/react'

import { GeneralErrorBoundary } from './components/layout/error-boundary.tsx'
import { useNonce } from './components/layout/nonce.tsx'
import { ToastProvider } from './components/layout/toaster.tsx'
import { getOptionalUser } from './domain/auth/guards.server.ts'
import { getSiteCompany } from './domain/operator/operator-documents.server.ts'
import { toCurrentUser } from './domain/users/users.server.ts'
import { getEnv } from './lib/config/env.server.ts'
import { getHoneypot } from './lib/http/honeypot.server.ts'
import { getToast } from './lib/http/toast.server.ts'
import tailwindHref from './tailwind.css'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: tailwindHref },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [
  { title: 'Kestrel Aerial Survey — drone mapping and surveying, Cape Town' },
  {
    name: 'description',
    content:
      'Professional drone mapping and aerial surveying services across South Africa. Draw your site, get an instant quote in rand, pay online.',
  },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  const { toast, headers } = await getToast(request)
  return json(
    {
      user: user ? toCurrentUser(user) : null,
      toast,
      honeypot: getHoneypot().getInputProps(),
      company: getSiteCompany(),
      paymentMode: getEnv().PAYFAST_MODE,
    },
    { headers: headers ?? undefined },
  )
}

export type RootLoaderData = typeof loader

/** The signed-in user (or null) anywhere below the root. */
export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>('root')?.user ?? null
}

export function useRootData() {
  return useRouteLoaderData<typeof loader>('root')
}

/**
 * A route whose page works wholly without JavaScript and gains nothing from it at first paint
 * exports `handle = { hydrate: false }`: it is sent with no scripts at all (the landing page).
 */
export type PageHandle = { hydrate?: false }

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  const scriptless = useMatches().some((m) => (m.handle as PageHandle | undefined)?.hydrate === false)
  // Only a document sent by the server goes without: a page already running keeps its scripts.
  const hydrate = typeof document !== 'undefined' || !scriptless
  // A signal for the journeys that wait on a settled page, set on the element once React has
  // hydrated (not as state: that would render the whole page a second time).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return (
    <html lang="en-ZA" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#111827" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-full">
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  )
}

export default function App() {
  const data = useLoaderData<typeof loader>()
  return (
    <HoneypotProvider {...data.honeypot}>
      <ToastProvider serverToast={data.toast}>
        <Outlet />
      </ToastProvider>
    </HoneypotProvider>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
