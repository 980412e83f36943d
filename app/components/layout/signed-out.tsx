/**
 * The parts the signed-out pages (sign in, register, forgot and reset password) share: one
 * way to set up their conform form, the form itself with its honeypot and form-level
 * errors, its full-width submit button, the line of links under it, and the outcome card ("Check Your Email", …).
 */
import {
  getFormProps,
  getInputProps,
  useForm,
  type DefaultValue,
  type FieldMetadata,
  type FormMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, Link, useFormAction } from '@remix-run/react'
import type { ReactNode } from 'react'
import { HoneypotInputs } from 'remix-utils/honeypot/react'
import type { z } from 'zod'

import { Field } from '../forms.tsx'
import { FormErrors } from '../ui/alert.tsx'
import type { OutcomeKind } from '../ui/outcome-icon.tsx'
import { StatusButton } from '../ui/status-button.tsx'
import { useIsPending } from '../ui/use-is-pending.ts'
import { AuthLayout } from './auth-layout.tsx'
import { PageCard } from './page-card.tsx'

/** The page around the form: the account pages' split screen and the one card. */
function SignedOutPage({
  title,
  description,
  tagline,
  children,
}: {
  title: string
  description: ReactNode
  tagline?: string
  children: ReactNode
}) {
  return (
    <AuthLayout tagline={tagline}>
      <PageCard title={title} description={description}>
        {children}
      </PageCard>
    </AuthLayout>
  )
}

/** Checked in the browser on blur, re-checked as the user types, with the server's answer last. */
export function useSignedOutForm<Schema extends z.ZodTypeAny>({
  schema,
  ...options
}: {
  id: string
  schema: Schema
  lastResult?: SubmissionResult<string[]> | null
  defaultValue?: DefaultValue<z.input<Schema>>
}) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    ...options,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
}

function SignedOutForm<Schema extends Record<string, unknown>>({
  form,
  children,
}: {
  form: FormMetadata<Schema, string[]>
  children: ReactNode
}) {
  return (
    <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
      <HoneypotInputs />
      <FormErrors id={form.errorId} errors={form.errors} />
      {children}
    </Form>
  )
}

/** The form's one button, busy while this page's form is being sent. */
function SignedOutSubmit({ pendingLabel, children }: { pendingLabel: string; children: ReactNode }) {
  const pending = useIsPending({ formAction: useFormAction() })
  return (
    <StatusButton pending={pending} pendingLabel={pendingLabel} className="w-full">
      {children}
    </StatusButton>
  )
}

/** The sign-in address, as typed on the sign-in and forgot-password pages. */
function SignInEmailField({ field }: { field: FieldMetadata<string> }) {
  return (
    <Field
      labelProps={{ children: 'Email' }}
      errors={field.errors}
      inputProps={{
        ...getInputProps(field, { type: 'email' }),
        autoComplete: 'email',
        placeholder: 'you@company.co.za',
      }}
    />
  )
}

/** The line under the card's form: "Don't have an account? Create one here". */
function SignedOutFooter({ prompt, to, children }: { prompt?: string; to: string; children: ReactNode }) {
  return (
    <p className="mt-6 text-center text-sm text-ink-600">
      {prompt ? `${prompt} ` : null}
      <Link to={to} className="link">
        {children}
      </Link>
    </p>
  )
}

/** The card that replaces the form once it is done (or cannot be), with its way on. */
function SignedOutOutcome({
  title,
  description,
  icon,
  next,
  back,
  children,
}: {
  title: string
  description: string
  icon: OutcomeKind
  /** The main link on: a full-width primary button. */
  next: { to: string; label: string }
  /** A second, quieter link under it. */
  back?: { to: string; label: string }
  children?: ReactNode
}) {
  return (
    <AuthLayout>
      <PageCard title={title} description={description} icon={icon}>
        {children}
        <Link to={next.to} className="btn-primary mt-6 w-full">
          {next.label}
        </Link>
        {back ? (
          <Link to={back.to} className="btn-ghost mt-2 w-full">
            {back.label}
          </Link>
        ) : null}
      </PageCard>
    </AuthLayout>
  )
}

/** `<SignedOut.Page>`, `<SignedOut.Form>`, `<SignedOut.Submit>`, `<SignedOut.EmailField>`, `<SignedOut.Footer>`, `<SignedOut.Outcome>`. */
export const SignedOut = {
  Page: SignedOutPage,
  Form: SignedOutForm,
  Submit: SignedOutSubmit,
  EmailField: SignInEmailField,
  Footer: SignedOutFooter,
  Outcome: SignedOutOutcome,
}
