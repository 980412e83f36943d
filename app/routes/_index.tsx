import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AboutSection } from '#app/components/landing/about-section.tsx'
import { ContactSection } from '#app/components/landing/contact-section.tsx'
import { GallerySection } from '#app/components/landing/gallery-section.tsx'
import { Hero } from '#app/components/landing/hero.tsx'
import { PartnersSection } from '#app/components/landing/partners-section.tsx'
import { ServicesSection } from '#app/components/landing/services-section.tsx'
import { StepsSection } from '#app/components/landing/steps-section.tsx'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'
import { landingFigures } from '#app/domain/landing/landing-figures.server.ts'
import { landingSampleQuote } from '#app/domain/pricing/sample-quote.server.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { useRootData, type PageHandle } from '#app/root.tsx'
import { contactConstraint, contactFormAction } from '#app/routes/_helpers/contact-form.server.ts'

export const meta: MetaFunction = () => [
  { title: 'Kestrel Aerial Survey — drone mapping and aerial surveying, Cape Town' },
  {
    name: 'description',
    content:
      'Professional drone mapping and aerial surveying across South Africa: draw your site on a satellite map, get an instant quote in rand and book the flight online.',
  },
]

/**
 * Sent without JavaScript (no React, no Remix: 0 KiB of scripts): every part works without it —
 * the header's glass is a CSS scroll animation, the mobile menu a <details>, the contact form a
 * plain post, a toast closes by CSS, and /#section is the browser's own jump.
 */
export const handle: PageHandle = { hydrate: false }

export async function action({ request, context }: ActionFunctionArgs) {
  return contactFormAction(request, context)
}

/**
 * The hero's sample quote (priced with the settings in force), the contact form's native
 * constraints and the page's figures, worked out here so the page ships no zod, pricing or
 * formatting code.
 */
export async function loader() {
  return json({
    sample: landingSampleQuote(getPricingSettings()),
    contactConstraint: contactConstraint(),
    figures: landingFigures(),
  })
}

export default function Landing() {
  const { sample, contactConstraint, figures } = useLoaderData<typeof loader>()
  const root = useRootData()
  const signedIn = Boolean(root?.user)

  return (
    <div className="bg-white">
      <SiteHeader signedIn={signedIn} overlay />
      <main>
        <Hero signedIn={signedIn} sample={sample} />
        <AboutSection figures={figures} />
        <ServicesSection />
        <StepsSection signedIn={signedIn} />
        <GallerySection signedIn={signedIn} tags={figures.galleryTags} />
        {root ? <PartnersSection company={root.company} /> : null}
        {root ? <ContactSection company={root.company} constraint={contactConstraint} /> : null}
      </main>
      {root ? <SiteFooter company={root.company} /> : null}
    </div>
  )
}
