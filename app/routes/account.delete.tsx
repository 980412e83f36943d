/**
 * `/account/delete` — "Delete my account" for every role (ADR 111): a confirmation page
 * that asks for the password again; the action anonymises the account, signs out and
 * goes home. Works without JavaScript.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { PasswordField } from '#app/components/forms/password-field.tsx'
import { AuthLayout } from '#app/components/layout/auth-layout.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { ACCOUNT_DELETED_TOAST, deleteAccount } from '#app/domain/account/account.server.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { destroySessionCookie } from '#app/domain/auth/session.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

export const meta: MetaFunction = () => [{ title: 'Delete my account · Kestrel Aerial Survey' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  return json({})
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await readFormBody(request)
  const password = String(form.get('password') ?? '')
  if (!password) return json({ error: 'Please enter your password to confirm.' }, { status: 400 })
  try {
    await deleteAccount(user.id, password)
  } catch (error) {
    if (!isDomainError(error)) throw error
    return json({ error: error.message }, { status: error.status })
  }
  return redirectWithToast('/', ACCOUNT_DELETED_TOAST, {
    headers: { 'Set-Cookie': await destroySessionCookie() },
  })
}

export default function DeleteAccountPage() {
  const actionData = useActionData<typeof action>()
  const pending = useIsPending({ formAction: '/account/delete' })
  return (
    <AuthLayout>
      <PageCard title="Delete my account">
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-ink-600">
          <li>Your name, contact details and profile are removed and you are signed out.</li>
          <li>Your uploaded documents, draft and unpaid projects are deleted.</li>
          <li>Tax invoices stay for five years with the name and address they carry, as tax law requires.</li>
          <li>This cannot be undone. Download your data first if you want a copy.</li>
        </ul>
        <Form method="post" className="mt-6 space-y-4">
          {actionData?.error ? (
            <Alert tone="error" title="Not deleted">
              <p>{actionData.error}</p>
            </Alert>
          ) : null}
          <PasswordField
            labelProps={{ children: 'Your password' }}
            errors={undefined}
            inputProps={{
              id: 'delete-password',
              name: 'password',
              type: 'password',
              required: true,
              autoComplete: 'current-password',
            }}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Link to="/dashboard?tab=profile" className="btn-secondary">
              Keep my account
            </Link>
            <StatusButton pending={pending} pendingLabel="Deleting…" variant="danger">
              Delete my account
            </StatusButton>
          </div>
        </Form>
      </PageCard>
    </AuthLayout>
  )
}
