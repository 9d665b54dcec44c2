import type { SigningAlgorithm } from './options.js';

/**
 * What to do about key material that is not the PEM block an asymmetric algorithm needs.
 * Each answer names the command that fixes the common case; none ever quotes the key.
 */
export function privateKeyProblem(pem: string, algorithm: SigningAlgorithm): string {
  const escaped = escapedLineBreaks(pem);
  if (escaped !== null) return escaped;
  const label = pemLabel(pem);
  const convert = 'convert it with `openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem`';
  switch (label) {
    case 'PRIVATE KEY':
      return 'could not be read as a PEM key';
    case 'RSA PRIVATE KEY':
      return `is a PKCS#1 "RSA PRIVATE KEY"; ${algorithm} needs PKCS#8 ("BEGIN PRIVATE KEY"): ${convert}`;
    case 'EC PRIVATE KEY':
      return `is a SEC1 "EC PRIVATE KEY"; ${algorithm} needs PKCS#8 ("BEGIN PRIVATE KEY"): ${convert}`;
    case 'ENCRYPTED PRIVATE KEY':
      return 'is encrypted; store it decrypted (`openssl pkcs8 -in key.pem -out key.pkcs8.pem` asks for its passphrase) in a secret store';
    case 'OPENSSH PRIVATE KEY':
      return 'is an OpenSSH key; convert a copy to PKCS#8 with `ssh-keygen -p -m PKCS8 -f key` (it rewrites the file in place)';
    case 'PUBLIC KEY':
    case 'RSA PUBLIC KEY':
      return 'is a public key; JWT_SECRET_KEY holds the private key (PEM "BEGIN PRIVATE KEY") and JWT_VERIFYING_KEY its public half';
    case null:
      return `must be a PEM private key for ${algorithm} ("-----BEGIN PRIVATE KEY-----", PKCS#8), not a shared secret: generate one with \`${generateCommand(algorithm)}\`, or use JWT_ALGORITHM=HS256 for a random secret`;
    default:
      return `must be a PEM "PRIVATE KEY" (PKCS#8) block, got a "${label}" block`;
  }
}

export function publicKeyProblem(pem: string): string {
  const escaped = escapedLineBreaks(pem);
  if (escaped !== null) return escaped;
  const label = pemLabel(pem);
  switch (label) {
    case 'PUBLIC KEY':
      return 'could not be read as a PEM key';
    case 'RSA PUBLIC KEY':
      return 'is a PKCS#1 "RSA PUBLIC KEY"; convert it to SPKI ("BEGIN PUBLIC KEY") with `openssl rsa -RSAPublicKey_in -in public.pem -pubout`';
    case 'CERTIFICATE':
      return 'is a certificate; extract its public key with `openssl x509 -in cert.pem -pubkey -noout`';
    case null:
      return 'must be a PEM "PUBLIC KEY" (SPKI) block: derive it from the private key with `openssl pkey -in key.pem -pubout`';
    default:
      if (label.includes('PRIVATE KEY')) {
        return 'is a private key; JWT_VERIFYING_KEY takes its public half: `openssl pkey -in key.pem -pubout`';
      }
      return `must be a PEM "PUBLIC KEY" (SPKI) block, got a "${label}" block`;
  }
}

/** The label of the first PEM block (`RSA PRIVATE KEY`), or null when there is none. */
export function pemLabel(pem: string): string | null {
  return /^-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem.trimStart())?.[1] ?? null;
}

/**
 * A PEM pasted on one line with literal `\n` (an unquoted .env value, or a JSON string
 * copied with its escapes). settingsFromEnv converts them; a value passed in code does not.
 */
function escapedLineBreaks(pem: string): string | null {
  if (!pem.includes('-----BEGIN') || !pem.includes('\\n') || pem.trim().includes('\n')) return null;
  return (
    'contains literal "\\n" sequences instead of line breaks: in a .env file put the value in double quotes ' +
    '(dotenv turns \\n into a line break there) or read it with settingsFromEnv, which converts them'
  );
}

const OPENSSL_CURVES: Readonly<Record<string, string>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

function generateCommand(algorithm: SigningAlgorithm): string {
  if (algorithm.startsWith('ES')) {
    return `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:${OPENSSL_CURVES[algorithm] ?? 'P-256'} -out key.pem`;
  }
  if (algorithm === 'EdDSA') return 'openssl genpkey -algorithm ed25519 -out key.pem';
  return 'openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out key.pem';
}
