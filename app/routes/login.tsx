import { getInputProps } from '@conform-to/react'
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useSearchParams } from '@remix-run/react'
import { PasswordField } from '#app/components/forms/password-field.tsx'
import { SignedOut, useSignedOutForm } from '#app/components/layout/signed-out.tsx'
import { authenticatePassword } from '#app/domain/auth/authenticator.server.ts'
import { safeRedirect } from '#app/domain/auth/guards.server.ts'
import { LOGIN_FAILED_MESSAGE, LoginSchema } from '#app/domain/auth/schemas.ts'
import { startSession } from '#app/domain/auth/session.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readSignedOutForm } from '#app/routes/_helpers/signed-out-form.server.ts'

export { signedOutOnlyLoader as loader } from '#app/routes/_helpers/signed-out-form.server.ts'

export const meta: MetaFunction = () => [{ title: 'Sign in · Kestrel Aerial Survey' }]

export async function action({ request, context }: ActionFunctionArgs) {
  // remix-auth reads the body itself, so parse a clone.
  const read = await readSignedOutForm(request.clone(), context, {
    schema: LoginSchema,
    limit: 'login',
    hideFields: ['password'],
  })
  if (read.refused) return json({ result: read.refused.result }, { status: read.refused.status })
  const { submission } = read
  try {
    const user = await authenticatePassword(request)
    const { cookie } = await startSession(user.id, request, context)
    return redirect(safeRedirect(submission.value.redirectTo), { headers: { 'Set-Cookie': cookie } })
  } catch (error) {
    if (error instanceof Response) throw error
    // An unexpected failure gets the product's fallback in the form, not the error page.
    const known = isDomainError(error)
    if (!known) console.error('[login] unexpected failure', error)
    return json(
      {
        result: submission.reply({
          formErrors: [(known && error.message) || LOGIN_FAILED_MESSAGE],
          hideFields: ['password'],
        }),
      },
      {
        status: known ? error.status : 500,
        headers: known ? error.headers : undefined,
      },
    )
  }
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const [form, fields] = useSignedOutForm({
    id: 'login-form',
    schema: LoginSchema,
    lastResult: actionData?.result,
    defaultValue: { redirectTo: searchParams.get('redirectTo') ?? '' },
  })

  return (
    <SignedOut.Page title="Welcome Back" description="Sign in to your account">
      <SignedOut.Form form={form}>
        <input {...getInputProps(fields.redirectTo, { type: 'hidden' })} />
        <SignedOut.EmailField field={fields.email} />
        <PasswordField
          labelProps={{ children: 'Password' }}
          errors={fields.password.errors}
          inputProps={{
            ...getInputProps(fields.password, { type: 'password' }),
            autoComplete: 'current-password',
          }}
        />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="link text-sm">
            Forgot password?
          </Link>
        </div>
        <SignedOut.Submit pendingLabel="Signing In...">Sign In</SignedOut.Submit>
      </SignedOut.Form>
      <SignedOut.Footer prompt="Don't have an account?" to="/register">
        Create one here
      </SignedOut.Footer>
    </SignedOut.Page>
  )
}
