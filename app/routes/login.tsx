import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useSearchParams } from '@remix-run/react'
import { Field, FormErrors, PasswordField } from '#app/components/forms.tsx'
import { AuthLayout } from '#app/components/layout/auth-layout.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { authenticatePassword } from '#app/domain/auth/authenticator.server.ts'
import { requireAnonymous, safeRedirect } from '#app/domain/auth/guards.server.ts'
import { LOGIN_FAILED_MESSAGE, LoginSchema } from '#app/domain/auth/schemas.ts'
import { commitSessionCookie, createSession } from '#app/domain/auth/session.server.ts'
import { readSignedOutForm } from '#app/domain/auth/signed-out-form.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { HoneypotInputs } from 'remix-utils/honeypot/react'

export const meta: MetaFunction = () => [{ title: 'Sign in · Kestrel Aerial Survey' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request)
  return json({})
}

export async function action({ request, context }: ActionFunctionArgs) {
  // remix-auth reads the body itself, so parse a clone (ADR 171 "remix-auth").
  const formData = await readFormBody(request.clone())
  const read = await readSignedOutForm(formData, context, {
    schema: LoginSchema,
    limit: 'login',
    hideFields: ['password'],
  })
  if (read.refused) return json({ result: read.refused.result }, { status: read.refused.status })
  const { submission } = read
  try {
    const user = await authenticatePassword(request)
    const { token, expiresAt } = await createSession(user.id, {
      ipAddress: clientIpOf(context),
      userAgent: request.headers.get('User-Agent'),
    })
    return redirect(safeRedirect(submission.value.redirectTo), {
      headers: { 'Set-Cookie': await commitSessionCookie(token, expiresAt) },
    })
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
  const pending = useIsPending({ formAction: '/login' })
  const [form, fields] = useForm({
    id: 'login-form',
    constraint: getZodConstraint(LoginSchema),
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: { redirectTo: searchParams.get('redirectTo') ?? '' },
  })

  return (
    <AuthLayout>
      <PageCard title="Welcome Back" description="Sign in to your account">
        <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
          <HoneypotInputs />
          <input {...getInputProps(fields.redirectTo, { type: 'hidden' })} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label="Email"
            errors={fields.email.errors}
            inputProps={{
              ...getInputProps(fields.email, { type: 'email' }),
              autoComplete: 'email',
              placeholder: 'you@company.co.za',
            }}
          />
          <PasswordField
            label="Password"
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
          <StatusButton pending={pending} pendingLabel="Signing In..." className="w-full">
            Sign In
          </StatusButton>
        </Form>
        <p className="mt-6 text-center text-sm text-ink-600">
          Don't have an account?{' '}
          <Link to="/register" className="link">
            Create one here
          </Link>
        </p>
      </PageCard>
    </AuthLayout>
  )
}
