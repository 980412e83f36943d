import { SiteHeader } from '#app/components/layout/site-header.tsx'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { useRootData } from '#app/root.tsx'

export default function Landing() {
  const root = useRootData()
  return (
    <div>
      <SiteHeader signedIn={Boolean(root?.user)} overlay />
      <main id="home" className="bg-ink-950 pt-32 pb-24 text-white">
        <h1 className="text-center text-4xl font-black">ELEVATE YOUR VIEW. EMPOWER YOUR INSIGHT</h1>
      </main>
      {root ? <SiteFooter company={root.company} /> : null}
    </div>
  )
}
