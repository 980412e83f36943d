/**
 * `/unsubscribe?token=…` — the link in every marketing e-mail (POPIA s69). The page asks
 * for one click (mail scanners follow GET links, so GET changes nothing); the POST —
 * from the page or a mail client's one-click List-Unsubscribe — withdraws the consent.
 * No sign-in needed: the token is signed.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { AuthLayout } from '#app/components/layout/auth-layout.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { readUnsubscribeToken, unsubscribe } from '#app/domain/privacy/marketing.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'

export const meta: MetaFunction = () => [{ title: 'Unsubscribe · Kestrel Aerial Survey' }]

const INVALID_LINK =
  'This unsubscribe link is not valid. Sign in and change the marketing setting in your profile, or e-mail us.'

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  return json({ token, valid: readUnsubscribeToken(token) != null })
}

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url)
  const form = await readFormBody(request)
  const token = String(form.get('token') ?? url.searchParams.get('token') ?? '')
  const done = unsubscribe(token)
  return json({ done }, { status: done ? 200 : 400 })
}

export default function UnsubscribePage() {
  const { token, valid } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending({ formAction: '/unsubscribe' })
  return (
    <AuthLayout>
      <PageCard title="Unsubscribe from marketing e-mail">
        {actionData?.done ? (
          <Alert tone="success" className="mt-4" title="You are unsubscribed">
            <p>
              We will not send you marketing e-mail any more. You will still get e-mail about your projects,
              payments and account.
            </p>
          </Alert>
        ) : !valid || actionData?.done === false ? (
          <Alert tone="error" className="mt-4" title="Link not valid">
            <p>{INVALID_LINK}</p>
          </Alert>
        ) : (
          <Form method="post" className="mt-4 space-y-4">
            <p className="text-sm text-ink-600">
              Stop news and offers from Kestrel Aerial Survey. E-mail about your projects, payments and
              account continues.
            </p>
            <input type="hidden" name="token" value={token} />
            <StatusButton pending={pending} pendingLabel="Unsubscribing…">
              Unsubscribe
            </StatusButton>
          </Form>
        )}
        <p className="mt-6 text-sm text-ink-600">
          <Link to="/privacy" className="link">
            Privacy notice
          </Link>
        </p>
      </PageCard>
    </AuthLayout>
  )
}
