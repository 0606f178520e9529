package dev.pglane.connect.tls;

import dev.pglane.connect.tls.TestPki.Issued;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.OutputEncryptor;
import org.bouncycastle.util.io.pem.PemGenerationException;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * Writes certificates and private keys in the formats that servers and pgjdbc read. Key files are created readable
 * by their owner only (0600), as both PostgreSQL and pgjdbc insist.
 */
public final class KeyFiles {
    private KeyFiles() {}

    /** PEM certificates, the first the subject's, the rest its chain. */
    public static Path certificates(Path file, Certificate... certificates) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
            for (Certificate certificate : certificates) {
                pem.writeObject(certificate);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return write(file, text.toString().getBytes(StandardCharsets.US_ASCII), false);
    }

    /** A plain PKCS-8 key in DER, as {@code openssl pkcs8 -topk8 -nocrypt -outform DER} writes it. */
    public static Path pkcs8Der(Path file, PrivateKey key) {
        return write(file, key.getEncoded(), true);
    }

    /**
     * A PKCS-8 key in DER encrypted the old way, as {@code openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -outform DER} does
     * (pbeWithSHAAnd3-KeyTripleDES-CBC), which pgjdbc can decrypt.
     */
    public static Path encryptedPkcs8Der(Path file, PrivateKey key, String password) {
        try {
            String algorithm = "PBEWithSHA1AndDESede";
            SecretKey secret =
                    SecretKeyFactory.getInstance(algorithm).generateSecret(new PBEKeySpec(password.toCharArray()));
            Cipher cipher = Cipher.getInstance(algorithm);
            byte[] salt = new byte[8];
            new SecureRandom().nextBytes(salt);
            cipher.init(Cipher.ENCRYPT_MODE, secret, new PBEParameterSpec(salt, 2048));
            EncryptedPrivateKeyInfo encrypted =
                    new EncryptedPrivateKeyInfo(cipher.getParameters(), cipher.doFinal(key.getEncoded()));
            return write(file, encrypted.getEncoded(), true);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A PKCS-8 key in DER encrypted as OpenSSL 3's {@code openssl pkcs8 -topk8 -outform DER} does by default: PBES2,
     * PBKDF2 with HMAC-SHA256, AES-256-CBC. pgjdbc cannot decrypt it on Java 17.
     */
    public static Path pbes2Pkcs8Der(Path file, PrivateKey key, String password) {
        try {
            OutputEncryptor encryptor = new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                    .setPRF(new AlgorithmIdentifier(PKCSObjectIdentifiers.id_hmacWithSHA256))
                    .setIterationCount(2048)
                    .setProvider(new BouncyCastleProvider())
                    .setPassword(password.toCharArray())
                    .build();
            PemObject encrypted = new JcaPKCS8Generator(key, encryptor).generate();
            return write(file, encrypted.getContent(), true);
        } catch (OperatorCreationException | PemGenerationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A plain PKCS-8 key in PEM ({@code -----BEGIN PRIVATE KEY-----}). */
    public static Path pkcs8Pem(Path file, PrivateKey key) {
        try {
            return pem(file, new JcaPKCS8Generator(key, null).generate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** OpenSSL's traditional RSA key ({@code -----BEGIN RSA PRIVATE KEY-----}, PKCS #1), which pgjdbc cannot read. */
    public static Path traditionalPem(Path file, PrivateKey key) {
        return pem(file, key);
    }

    /** A PKCS-12 keystore with the key and its chain under the alias pgjdbc looks up, {@code user}. */
    public static Path pkcs12(Path file, Issued issued, String password) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            Certificate[] chain = issued.issuer() == null
                    ? new Certificate[] {issued.certificate()}
                    : new Certificate[] {issued.certificate(), issued.issuer().certificate()};
            store.setKeyEntry("user", issued.keys().getPrivate(), password.toCharArray(), chain);
            write(file, new byte[0], true);
            try (OutputStream out = Files.newOutputStream(file)) {
                store.store(out, password.toCharArray());
            }
            return file;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path pem(Path file, Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
            pem.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return write(file, text.toString().getBytes(StandardCharsets.US_ASCII), true);
    }

    private static Path write(Path file, byte[] content, boolean secret) {
        try {
            Files.deleteIfExists(file);
            if (secret) {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            return Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
