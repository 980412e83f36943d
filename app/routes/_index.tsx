import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ContactSection, type ContactActionData } from '#app/components/landing/contact-section.tsx'
import {
  AboutSection,
  GallerySection,
  Hero,
  PartnersSection,
  ServicesSection,
  StepsSection,
} from '#app/components/landing/sections.tsx'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'
import { enforceRateLimit, RATE_LIMIT_MESSAGE } from '#app/domain/auth/rate-limit.server.ts'
import { ContactDeliveryError, submitContactMessage } from '#app/domain/contact/contact.server.ts'
import { CONTACT_FAILED_TOAST, CONTACT_SENT_TOAST, ContactSchema } from '#app/domain/contact/schemas.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { checkHoneypot } from '#app/domain/http/honeypot.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { useRootData } from '#app/root.tsx'
import { useEffect } from 'react'

export const meta: MetaFunction = () => [
  { title: 'Kestrel Aerial Survey — drone mapping and aerial surveying, Cape Town' },
  {
    name: 'description',
    content:
      'Professional drone mapping and aerial surveying across South Africa: draw your site on a satellite map, get an instant quote in rand and book the flight online.',
  },
]

/** Spec section 9: on load with a hash, scroll to that section after 100 ms. */
export const HASH_SCROLL_DELAY_MS = 100

type Toast = NonNullable<ContactActionData['toast']>

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormBody(request)
  if (formData.get('intent') !== 'contact') {
    return json<ContactActionData>({ toast: { title: 'Unknown action', type: 'error' } }, { status: 400 })
  }
  checkHoneypot(formData)
  const inPlace = formData.get('via') === 'fetcher'
  const submission = parseWithZod(formData, { schema: ContactSchema })
  if (submission.status !== 'success') {
    return json<ContactActionData>({ result: submission.reply(), toast: null }, { status: 400 })
  }
  // With JavaScript the page stays and shows the toast itself; without, a redirect
  // carries it in a flash cookie back to the contact section.
  const answer = (toast: Toast, status: number) =>
    inPlace
      ? json<ContactActionData>(
          { result: submission.reply({ resetForm: status === 200 }), toast },
          { status },
        )
      : redirectWithToast('/#contact', toast)

  try {
    await enforceRateLimit('contact', clientIpOf(context))
  } catch (error) {
    if (!isDomainError(error, 429)) throw error
    return answer({ ...CONTACT_FAILED_TOAST, description: RATE_LIMIT_MESSAGE }, 429)
  }
  try {
    await submitContactMessage(submission.value, { ipAddress: clientIpOf(context) })
  } catch (error) {
    if (!(error instanceof ContactDeliveryError)) throw error
    return answer(CONTACT_FAILED_TOAST, 502)
  }
  return answer(CONTACT_SENT_TOAST, 200)
}

/** The settings the hero's sample quote shows (VAT rate, local travel fee). */
export async function loader() {
  const { vatRate, localTravelFee } = getPricingSettings()
  return json({ pricing: { vatRate, localTravelFee } })
}

export default function Landing() {
  const { pricing } = useLoaderData<typeof loader>()
  const root = useRootData()
  const signedIn = Boolean(root?.user)

  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1))
    if (!id) return
    const timer = setTimeout(
      () => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth' }),
      HASH_SCROLL_DELAY_MS,
    )
    return () => clearTimeout(timer)
  }, [])

  return (
    <div className="bg-white">
      <SiteHeader signedIn={signedIn} overlay />
      <main>
        <Hero signedIn={signedIn} pricing={pricing} />
        <AboutSection />
        <ServicesSection />
        <StepsSection signedIn={signedIn} />
        <GallerySection signedIn={signedIn} />
        {root ? <PartnersSection company={root.company} /> : null}
        {root ? <ContactSection company={root.company} /> : null}
      </main>
      {root ? <SiteFooter company={root.company} /> : null}
    </div>
  )
}
