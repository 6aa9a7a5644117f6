/** @jsxRuntime automatic @jsxImportSource react */
// The pragma makes this file's JSX transform its own: tsx applies the tsconfig of the directory it
// starts in only to the files that tsconfig includes, so without it `tsx` in apps/api compiled this
// package's JSX to React.createElement without an import (ADR 0054).
import { Body, Container, Head, Hr, Html, Preview, Text } from "@react-email/components";

const BUTTON_CSS =
  "a.button{display:inline-block;background:#1d4ed8;color:#ffffff !important;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600}";

/** The frame around every mail; the admin-editable content goes inside. */
export function MailLayout({ subject, contentHtml }: { subject: string; contentHtml: string }) {
  return (
    <Html lang="de">
      <Head>
        <style>{BUTTON_CSS}</style>
      </Head>
      <Preview>{subject}</Preview>
      <Body
        style={{ backgroundColor: "#f4f5f7", fontFamily: "Helvetica, Arial, sans-serif", color: "#1f2937" }}
      >
        <Container
          style={{ backgroundColor: "#ffffff", margin: "24px auto", padding: "24px", maxWidth: "600px" }}
        >
          <Text style={{ fontSize: "18px", fontWeight: 700, color: "#1d4ed8", margin: 0 }}>
            Kongress-Plattform
          </Text>
          <Hr />
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: admin content is sanitised when saved and again after rendering (renderMail) */}
          <div dangerouslySetInnerHTML={{ __html: contentHtml }} />
          <Hr />
          <Text style={{ fontSize: "12px", color: "#6b7280" }}>
            Diese E-Mail wurde automatisch versendet. Bitte antworten Sie nicht auf diese Nachricht.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
