package dev.pglane.connect.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificate authorities and the certificates they issue, made fresh for each test run: nothing secret is checked
 * in, and nothing expires in the repository. RSA throughout, because pgjdbc reads PEM client keys as RSA only.
 */
public final class TestPki {
    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());
    private static final Duration VALIDITY = Duration.ofDays(2);

    /** A certificate with its key pair; {@code issuer} is null for a self-signed authority. */
    public record Issued(X509Certificate certificate, KeyPair keys, Issued issuer) {}

    private TestPki() {}

    /** A self-signed certificate authority. */
    public static Issued authority(String name) {
        KeyPair keys = rsaKeys();
        X500Name subject = new X500Name("CN=" + name);
        return sign(subject, keys, null, builder -> {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        });
    }

    /** A server certificate for a DNS name and an IP address (subject alternative names, as RFC 6125 wants). */
    public static Issued server(Issued ca, String dnsName, String ipAddress) {
        KeyPair keys = rsaKeys();
        GeneralNames names = new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, dnsName), new GeneralName(GeneralName.iPAddress, ipAddress)
        });
        return sign(new X500Name("CN=" + dnsName), keys, ca, builder -> {
            builder.addExtension(Extension.subjectAlternativeName, false, names);
            builder.addExtension(
                    Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            leafKeyUsage(builder);
        });
    }

    /** A client certificate whose CN is the role it logs in as under pg_hba.conf's {@code cert} method. */
    public static Issued client(Issued ca, String role) {
        KeyPair keys = rsaKeys();
        return sign(new X500Name("CN=" + role), keys, ca, builder -> {
            builder.addExtension(
                    Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
            leafKeyUsage(builder);
        });
    }

    private interface Extensions {
        void add(X509v3CertificateBuilder builder) throws CertIOException;
    }

    private static void leafKeyUsage(X509v3CertificateBuilder builder) throws CertIOException {
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(
                Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
    }

    private static Issued sign(X500Name subject, KeyPair keys, Issued issuer, Extensions extensions) {
        KeyPair signingKeys = issuer == null ? keys : issuer.keys();
        X500Name issuerName = issuer == null
                ? subject
                : X500Name.getInstance(
                        issuer.certificate().getSubjectX500Principal().getEncoded());
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    issuerName,
                    BigInteger.valueOf(SERIALS.incrementAndGet()),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(VALIDITY)),
                    subject,
                    keys.getPublic());
            builder.addExtension(
                    Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(keys.getPublic()));
            builder.addExtension(
                    Extension.authorityKeyIdentifier,
                    false,
                    utils.createAuthorityKeyIdentifier(signingKeys.getPublic()));
            extensions.add(builder);
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(builder.build(
                            new JcaContentSignerBuilder("SHA256withRSA").build(signingKeys.getPrivate())));
            return new Issued(certificate, keys, issuer);
        } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
            throw new IllegalStateException("Cannot issue a certificate for " + subject, e);
        }
    }

    private static KeyPair rsaKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
