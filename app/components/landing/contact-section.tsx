/**
 * Contact Us: public details and the contact form. The form posts to the landing
 * route's action, which validates it with the contact schema (the page ships neither
 * zod nor conform: ADR 184). With JavaScript it submits in place (a fetcher:
 * 'TRANSMITTING...', then the form clears and a toast shows); without, the post goes
 * to `/?index#contact`, so an error reply lands on the form, and a sent message
 * redirects back to /#contact with the toast in a flash cookie.
 */
import type { SubmissionResult } from '@conform-to/react'
import { useActionData, useFetcher } from '@remix-run/react'
import type {
  ContactActionData,
  ContactConstraint,
  ContactField,
} from '#app/routes/_helpers/contact-form.server.ts'
import { useEffect, useRef, useState } from 'react'
import { HoneypotInputs } from 'remix-utils/honeypot/react'

import { Field, TextareaField } from '../forms.tsx'
import type { FooterCompany } from '../layout/site-footer.tsx'
import { useToast } from '../layout/toaster.tsx'
import { StatusButton } from '../ui/status-button.tsx'
import { useHydrated } from '../ui/use-hydrated.ts'
import { Icon } from './icons.tsx'

/** The form posts here: the index route's action, landing back on the form. */
const CONTACT_FORM_ACTION = '/?index#contact'

export function ContactSection({
  company,
  constraint,
}: {
  company: FooterCompany
  constraint: ContactConstraint
}) {
  return (
    <section id="contact" className="scroll-mt-16 bg-white py-20 sm:py-28">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[0.9fr_1.1fr]">
        <div>
          <p className="text-xs font-bold uppercase tracking-[0.25em] text-amber-700">Get in touch</p>
          <h2 className="mt-3 text-3xl font-black tracking-tight text-ink-950 sm:text-4xl">Contact Us</h2>
          <p className="mt-4 max-w-md text-ink-600">
            Tell us about your site and what you need to know. We answer every enquiry within one business
            day.
          </p>
          <ul className="mt-10 space-y-6">
            <ContactDetail icon={<Icon name="mail" />} label="Email">
              <a href={`mailto:${company.email}`} className="hover:text-amber-700">
                {company.email}
              </a>
            </ContactDetail>
            <ContactDetail icon={<Icon name="phone" />} label="Phone">
              <a href={company.phoneHref} className="hover:text-amber-700">
                {company.phoneDisplay}
              </a>
            </ContactDetail>
            <ContactDetail icon={<Icon name="pin" />} label="Location">
              Cape Town, South Africa
            </ContactDetail>
          </ul>
        </div>
        <div className="rounded-3xl border border-ink-100 bg-ink-50 p-6 shadow-card sm:p-10">
          <ContactForm constraint={constraint} />
        </div>
      </div>
    </section>
  )
}

function ContactDetail({
  icon,
  label,
  children,
}: {
  icon: React.ReactNode
  label: string
  children: React.ReactNode
}) {
  return (
    <li className="flex items-center gap-4">
      <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-ink-900 text-amber-400">
        {icon}
      </span>
      <span>
        <span className="block text-xs font-semibold uppercase tracking-wider text-ink-500">{label}</span>
        <span className="block font-semibold text-ink-900">{children}</span>
      </span>
    </li>
  )
}

function ContactForm({ constraint }: { constraint: ContactConstraint }) {
  const fetcher = useFetcher<ContactActionData>()
  const actionData = useActionData<ContactActionData>()
  const hydrated = useHydrated()
  const showToast = useToast()
  const formRef = useRef<HTMLFormElement>(null)
  const result = fetcher.data?.result ?? actionData?.result
  // A field's server error is hidden once the visitor edits that field.
  const [edited, setEdited] = useState<Set<string>>(new Set())
  const transmitting = fetcher.state !== 'idle'

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    setEdited(new Set())
    if (fetcher.data.toast) showToast(fetcher.data.toast)
    if (fetcher.data.toast?.type === 'success') formRef.current?.reset()
  }, [fetcher.state, fetcher.data, showToast])

  const errorsOf = (name: ContactField) => (edited.has(name) ? undefined : result?.error?.[name])
  const fieldProps = (name: ContactField) => ({
    id: `contact-${name}`,
    name,
    defaultValue: hydrated ? undefined : initialText(result, name),
    required: constraint[name]?.required,
    maxLength: constraint[name]?.maxLength,
    minLength: constraint[name]?.minLength,
    onInput: () => setEdited((set) => (set.has(name) ? set : new Set(set).add(name))),
  })

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={CONTACT_FORM_ACTION}
      id="contact-form"
      className="space-y-5"
    >
      <input type="hidden" name="intent" value="contact" />
      {/* Tells the action to answer in place instead of redirecting. */}
      {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
      <HoneypotInputs />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          labelProps={{ children: 'Name' }}
          errors={errorsOf('name')}
          inputProps={{ ...fieldProps('name'), type: 'text', autoComplete: 'name', placeholder: 'Your name' }}
        />
        <Field
          labelProps={{ children: 'Email' }}
          errors={errorsOf('email')}
          inputProps={{
            ...fieldProps('email'),
            type: 'email',
            autoComplete: 'email',
            placeholder: 'you@company.co.za',
          }}
        />
      </div>
      <TextareaField
        labelProps={{ children: 'Message' }}
        errors={errorsOf('message')}
        textareaProps={{
          ...fieldProps('message'),
          rows: 6,
          placeholder: 'Where is your site, how big is it and what do you need?',
        }}
      />
      <StatusButton
        pending={transmitting}
        pendingLabel="TRANSMITTING..."
        className="w-full py-3 text-base tracking-wide sm:w-auto sm:px-8"
      >
        SEND MESSAGE
      </StatusButton>
    </fetcher.Form>
  )
}

/** What the visitor typed, sent back with an error reply (the page reloaded without JavaScript). */
function initialText(result: SubmissionResult<string[]> | undefined, name: ContactField) {
  const value = result?.initialValue?.[name]
  return typeof value === 'string' ? value : undefined
}
