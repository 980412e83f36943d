/**
 * /s/{token}/3d — the 3D view through a share link: the shared models and point clouds, read
 * through the link (checked on every read), downloads only when the link allows them. An unknown,
 * revoked or expired link answers as the viewer does (404 / 410). Never indexed, no referrer.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { ThreeDPageBody } from '#app/components/threed/three-d-sections.tsx'
import { shareThreeDView } from '#app/domain/deliverables/three-d-view.server.ts'
import { openShareToken, shareTokenOf } from '#app/domain/sharing/share-access.server.ts'
import { clientIpOf } from '#app/lib/http/context.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'

export const meta: MetaFunction = () => [
  { title: 'Shared survey data in 3D · Kestrel Aerial Survey' },
  { name: 'robots', content: 'noindex, nofollow' },
  { name: 'referrer', content: 'no-referrer' },
]

const PUBLIC_HEADERS = {
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'private, no-store',
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  try {
    const share = await openShareToken(shareTokenOf(request, params.token), clientIpOf(context))
    return json(
      { token: params.token!, ...(await shareThreeDView(params.token!, share)) },
      { headers: PUBLIC_HEADERS },
    )
  } catch (error) {
    if (isDomainError(error) && error.status < 500)
      throw new Response(error.message, {
        status: error.status,
        headers: { ...PUBLIC_HEADERS, ...error.headers },
      })
    throw error
  }
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export default function SharedThreeDPage() {
  const data = useLoaderData<typeof loader>()
  return (
    <AppShell>
      <ThreeDPageBody
        data={data}
        stillUploadUrl={null}
        header={
          <header className="flex flex-wrap items-end justify-between gap-3">
            <div className="min-w-0">
              <p className="text-sm font-medium uppercase tracking-wide text-ink-500">
                Shared survey data · 3D
              </p>
              <h1 className="break-words text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">
                {data.project.name}
              </h1>
            </div>
            <Link to={`/s/${data.token}`} className="btn-secondary btn-sm">
              All shared files
            </Link>
          </header>
        }
      />
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
