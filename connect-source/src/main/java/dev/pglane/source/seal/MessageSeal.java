package dev.pglane.source.seal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The connector's seal on the logical decoding messages it writes to steer itself. A sealed content is the first 16
 * bytes of an HMAC-SHA256 over the message's prefix and payload, in unpadded base64url (22 characters), a dot, and the
 * payload: {@code <mac>.<payload>}. The prefix is part of what is signed, so a sealed watermark cannot pass for a
 * signal. A login that can emit messages but holds neither the key nor a sealed message (the walsender sends them only
 * to replication connections) cannot make one that opens as authentic.
 *
 * <p>The key is {@code wal.messages.key} when the connector has one, never written anywhere by pglane; otherwise one
 * the connector generated on its first start and keeps in its source offsets ({@link #keptKey()}). Safe for use by
 * several threads: a {@link Mac} is made per call, and calls are rare (a chunk, a signal, a watch's round).
 */
public final class MessageSeal {
    private static final String ALGORITHM = "HmacSHA256";
    private static final int KEY_BYTES = 32;
    private static final int MAC_BYTES = 16;
    private static final int MAC_CHARS = 22;
    private static final byte SEPARATOR = '.';
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final String connector;
    private final SecretKeySpec key;
    private final String keptKey;
    private final RefusedMessages refused = new RefusedMessages();

    private MessageSeal(String connector, byte[] key, String keptKey) {
        this.connector = connector;
        this.key = new SecretKeySpec(key, ALGORITHM);
        this.keptKey = keptKey;
    }

    /**
     * A seal keyed by {@code wal.messages.key}: nothing of it goes into the offsets.
     *
     * @param connector the topic prefix of the connector it seals for, which its messages name
     */
    public static MessageSeal configured(String connector, String secret) {
        return new MessageSeal(connector, secret.getBytes(StandardCharsets.UTF_8), null);
    }

    /** A new random key, which the offsets keep from the first record on. */
    public static MessageSeal generated(String connector) {
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        return new MessageSeal(connector, key, ENCODER.encodeToString(key));
    }

    /**
     * The key an earlier run kept in the offsets.
     *
     * @throws IllegalArgumentException if {@code text} is not such a key
     */
    public static MessageSeal kept(String connector, String text) {
        byte[] key = DECODER.decode(text);
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("a kept message key has " + KEY_BYTES + " bytes, not " + key.length);
        }
        return new MessageSeal(connector, key, text);
    }

    /** The topic prefix of the connector this seal is for: messages naming another are that one's business. */
    public String connector() {
        return connector;
    }

    /** The key as the offsets keep it, or {@code null} when it is configured and so kept by the user. */
    public String keptKey() {
        return keptKey;
    }

    /** The messages refused for want of this seal. */
    public RefusedMessages refused() {
        return refused;
    }

    /** {@code payload} sealed, as the content of a message with {@code prefix}. */
    public String seal(String prefix, String payload) {
        return ENCODER.encodeToString(mac(prefix, payload.getBytes(StandardCharsets.UTF_8)))
                + (char) SEPARATOR
                + payload;
    }

    /**
     * What a message carries: its payload, and whether this connector sealed it. Content without a seal is all
     * payload, so that the caller can still tell whom it addresses before it refuses it.
     */
    public Opened open(String prefix, byte[] content) {
        if (content.length <= MAC_CHARS || content[MAC_CHARS] != SEPARATOR) {
            return new Opened(new String(content, StandardCharsets.UTF_8), false);
        }
        byte[] payload = Arrays.copyOfRange(content, MAC_CHARS + 1, content.length);
        byte[] claimed;
        try {
            claimed = DECODER.decode(Arrays.copyOf(content, MAC_CHARS));
        } catch (IllegalArgumentException e) {
            return new Opened(new String(content, StandardCharsets.UTF_8), false);
        }
        return new Opened(
                new String(payload, StandardCharsets.UTF_8), MessageDigest.isEqual(claimed, mac(prefix, payload)));
    }

    private byte[] mac(String prefix, byte[] payload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(prefix.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return Arrays.copyOf(mac.doFinal(payload), MAC_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is part of every Java runtime", e);
        }
    }

    /**
     * An opened message.
     *
     * @param payload the content without its seal
     * @param authentic whether the seal is this connector's over this prefix and payload
     */
    public record Opened(String payload, boolean authentic) {}
}
