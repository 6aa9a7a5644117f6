import { certificateDayLine, certificateRows, MSG_CERTIFICATE, type PublicCertificate } from "@app/shared";

/**
 * What a certificate states, exactly as its PDF prints it (`certificateRows` and `certificateDayLine` from
 * @app/shared make both): the verification page shows it, the EFN masked by the server (ADR 0117).
 */
export function CertificateFacts({ certificate }: { certificate: PublicCertificate }) {
  const { issuer } = certificate;
  return (
    <div className="space-y-4">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">
          {certificate.recording ? "Teilnahmebescheinigung (Aufzeichnung)" : "Teilnahmebescheinigung"}
        </h2>
        <p className="text-slate-700">
          Ausgestellt von <span className="font-medium text-slate-900">{issuer.name}</span>
          {issuer.address && <span className="block whitespace-pre-line text-sm">{issuer.address}</span>}
        </p>
      </div>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {certificateRows(certificate, certificate.number).map((row) => (
          <div key={row.label} className="contents">
            <dt className="text-slate-600">{row.label}</dt>
            <dd className="font-medium break-words text-slate-900">{row.value}</dd>
          </div>
        ))}
      </dl>
      {certificate.participant.efn && <p className="text-sm text-slate-600">{MSG_CERTIFICATE.efnMasked}</p>}
      {certificate.days.length > 0 && (
        <div>
          <h3 className="font-medium text-slate-900">Anerkannte Tage</h3>
          <ul className="mt-1 list-disc pl-6 text-slate-800">
            {certificate.days.map((day) => (
              <li key={day.day}>{certificateDayLine(day)}</li>
            ))}
          </ul>
        </div>
      )}
      {issuer.signatory && <p className="text-sm text-slate-700">Unterzeichnet: {issuer.signatory}</p>}
    </div>
  );
}
