package org.jmpi.internal.pt2pt;

import org.agrona.collections.Int2ObjectHashMap;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.CopyCostModel;
import org.jmpi.internal.datatype.LayoutStats;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Chooses the way each rendezvous message moves (issue 11, point 5; docs/pvas.md), and counts what it chose and
 * why ({@code jmpi.pvas.stats}).
 * <ol>
 * <li>Sender, at the send: no peer memory to the peer, {@code jmpi.pvas.mode=staged}, or a type whose
 * description the RTS cannot carry: {@link FragmentPath}. Otherwise the direct offer: {@link PeerCopyPath}, or
 * {@link SplitCopyPath} (from {@code jmpi.pvas.split.min} bytes, and always when the send buffer cannot be
 * exposed, so that the receiver may offer its own).</li>
 * <li>Receiver, at the match, knowing both layouts: under {@code auto} the {@link CopyCostModel} compares the
 * direct copy (by one or both ranks) with the best staged pipeline, and a receiver that finds staging cheaper
 * answers CTS: the sender withdraws its exposure and streams fragments. Under {@code direct} the direct offer is
 * taken whenever a buffer can be exposed.</li>
 * <li>Sender, on a CTS under {@code auto}: the fragment size the model finds best for its layout (capped by the
 * transport's full-speed frame, {@link PeerChannel#fastFrameLength}); otherwise {@code jmpi.fragment.size}.</li>
 * </ol>
 * The model is calibrated at start-up (a few ms; the defaults when that timed uncompiled code,
 * {@link CopyCostModel#startup}) unless {@code jmpi.pvas.calibration} names a file written by
 * {@code jmpirun --calibrate}; only a rank with a peer it reaches by peer memory needs it.
 *
 * <p>A communicator may override the mode and the staged fragment size for its own point-to-point messages with the
 * info hints {@link #MODE_HINT} and {@link #FRAGMENT_HINT} ({@code Comm.setInfo}, kept by {@code dup}): the sender
 * consults its communicator's, the receiver its own (both ranks set the same hints, as MPI asks of hints that change
 * behaviour). This is how bench's DdtPingPong measures auto, direct and staged alternately within one job
 * ({@code --modes}), so the auto rule compares the paths under one JIT state and one placement. Under a job whose
 * mode is not {@code auto} no cost model is loaded, and an {@code auto} hint then acts as {@code direct}.
 *
 * <p>Threading: configured before traffic; then engine thread only, except {@link #hint}, any thread (the hints are
 * a copy-on-write map read through a volatile field).
 */
final class PathSelector
{
    /** Info key: this communicator's {@code jmpi.pvas.mode} (auto, direct, staged). */
    static final String MODE_HINT = "jmpi.pvas.mode";
    /** Info key: this communicator's staged fragment payload in bytes ({@code 4096}, {@code 8k}), as {@code jmpi.fragment.size}. */
    static final String FRAGMENT_HINT = "jmpi.fragment.size";

    /** A communicator's overrides: a mode (null: the job's) and a fragment payload (0: the job's or the model's). */
    record Hint(Mode mode, int fragmentBytes)
    {
    }

    /** How rendezvous messages between ranks with peer memory move. */
    enum Mode
    {
        /** The cost model chooses per message. */
        AUTO,
        /** A direct copy wherever a buffer can be exposed. */
        DIRECT,
        /** Always the staged pipeline through fragments. */
        STAGED;

        static Mode parse(final String value)
        {
            return switch (value.trim().toLowerCase(Locale.ROOT))
            {
                case "auto" -> AUTO;
                case "direct" -> DIRECT;
                case "staged" -> STAGED;
                default -> throw new MpiException(ErrorClass.ERR_ARG, "jmpi.pvas.mode must be auto, direct or staged, not '" + value + "'");
            };
        }
    }

    /** {@link #choose}'s answer: the staged pipeline with the fragment size the sender chooses (no on-line check). */
    static final int STAGED_BY_SENDER = Integer.MAX_VALUE;
    /** Keys the on-line check keeps at most; beyond, it starts over (a program with that many layouts per size is rare). */
    static final int MAX_TRIAL_KEYS = 4096;

    /** A repeated message as the receiver sees it: the pair, the tag, the receive layout and the bytes. */
    private record TrialKey(int contextId, int sourceWorld, int tag, Datatype recvType, long recvCount, long bytes)
    {
    }

    /** Start-up calibration budget: "cheap, a few ms" (issue 11). */
    static final long STARTUP_CALIBRATION_NS = 5_000_000;

    private Mode mode = Mode.AUTO;
    private CopyCostModel model;
    private final int fragmentSize;
    private final SendPacking packing = new SendPacking();
    // The receiver's last decision ({@link #takeDirect}): its inputs and its outcome.
    private Datatype lastSendType;
    private long lastSendCount;
    private long lastBytes;
    private int lastCopiers;
    private int lastMaxFrame;
    private long lastRecvBlocks;
    private long lastRecvMinRun;
    private boolean lastDirect;
    // The on-line check (PathTrials), receiver: per key, with the last key's entry kept (an exchange repeats it).
    private int trialSamples;
    private long trialRecheck;
    private long trialDelay;
    private final HashMap<TrialKey, PathTrials> trials = new HashMap<>();
    private PathTrials lastTrials;
    private int lastTrialContext;
    private int lastTrialSource;
    private int lastTrialTag;
    private Datatype lastTrialType;
    private long lastTrialCount;
    private long lastTrialBytes;
    private long trialKeys;
    /** The receive the last {@link #choose} was for: only its reply carries a packing wish. */
    private RecvRequestImpl wishFor;
    // Sender: what the receivers' on-line checks asked of its next messages (made at configure).
    private SenderWishes wishes = new SenderWishes(0);
    private long stagedAtOnce;
    /** Context id -> hint; null when no communicator has any (the common case: one volatile read per decision). */
    private volatile Int2ObjectHashMap<Hint> hints;

    // Sender: how each send went out.
    private long eager;
    private long offeredDirect;
    private long stagedNoPeerMemory;
    private long stagedForced;
    private long stagedTypeTooLarge;
    // Receiver: how each rendezvous arrived and moved.
    private long peerCopies;
    private long splitCopies;
    private long senderCopies;
    private long stagedByModel;
    private long stagedNotExposable;
    private long stagedBySender;
    private long fragmentBytesChosen;
    private long fragmentChoices;
    private long splitBytes;
    private long splitBytesBySender;
    private long splitBytesSenderPart;
    /** How types travel in RTS and SPLIT frames (their counters), or null. */
    private PublishedTypes types;

    PathSelector(final int fragmentSize)
    {
        this.fragmentSize = fragmentSize;
    }

    /**
     * Sets the mode and, for {@code auto} with {@code needModel}, the model: read from {@code calibration} when
     * not blank, else measured now. Before traffic.
     */
    void configure(final String modeValue, final String calibration, final boolean needModel)
    {
        configure(modeValue, calibration, needModel, 0, 0, 0);
    }

    /**
     * As {@link #configure(String, String, boolean)}, with the on-line check of the model's choice ({@link PathTrials}):
     * {@code samples} timed messages per candidate path of a repeated message (0: no check, the model alone decides),
     * the first round after {@code delay} messages of the key, and a first re-check after {@code recheck} messages
     * (0: never). Before traffic.
     */
    void configure(final String modeValue, final String calibration, final boolean needModel, final int samples, final long recheck,
        final long delay)
    {
        trialSamples = Math.max(0, samples);
        trialRecheck = Math.max(0, recheck);
        trialDelay = Math.max(0, delay);
        wishes = new SenderWishes(trialRecheck);
        mode = Mode.parse(modeValue);
        if (mode == Mode.AUTO && needModel)
        {
            model = calibration == null || calibration.isBlank()
                ? CopyCostModel.startup(STARTUP_CALIBRATION_NS)
                : CopyCostModel.load(Path.of(calibration.trim()));
        }
    }

    Mode mode()
    {
        return mode;
    }

    /**
     * Sets (or, with both null or blank, clears) the overrides of the communicator whose point-to-point context is
     * {@code contextId}, from its info hints {@link #MODE_HINT} and {@link #FRAGMENT_HINT}. Any thread.
     *
     * @throws MpiException ERR_ARG for an unknown mode or a fragment size that is not a positive byte count
     */
    synchronized void hint(final int contextId, final String modeValue, final String fragmentValue)
    {
        final Mode m = modeValue == null || modeValue.isBlank() ? null : Mode.parse(modeValue);
        final int fragment = fragmentValue == null || fragmentValue.isBlank() ? 0 : parseFragment(fragmentValue);
        final Int2ObjectHashMap<Hint> current = hints;
        if (m == null && fragment == 0 && (current == null || !current.containsKey(contextId)))
        {
            return;
        }
        final Int2ObjectHashMap<Hint> next = new Int2ObjectHashMap<>();
        if (current != null)
        {
            for (final Map.Entry<Integer, Hint> e : current.entrySet())
            {
                next.put(e.getKey().intValue(), e.getValue());
            }
        }
        if (m == null && fragment == 0)
        {
            next.remove(contextId);
        }
        else
        {
            next.put(contextId, new Hint(m, fragment));
        }
        hints = next.isEmpty() ? null : next;
    }

    private static int parseFragment(final String value)
    {
        final String t = value.trim().toLowerCase(Locale.ROOT);
        final long unit = t.endsWith("k") ? 1024 : t.endsWith("m") ? 1 << 20 : 1;
        try
        {
            final long bytes = Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
            if (bytes > 0 && bytes <= Integer.MAX_VALUE)
            {
                return (int)bytes;
            }
        }
        catch (final NumberFormatException ex)
        {
            // below
        }
        throw new MpiException(ErrorClass.ERR_ARG, "info hint " + FRAGMENT_HINT + " must be a positive byte count (4096, 8k), not '" + value + "'");
    }

    /** The mode for messages of the communicator whose context is {@code contextId}: its hint's, else the job's. */
    private Mode mode(final int contextId)
    {
        final Int2ObjectHashMap<Hint> h = hints;
        if (h == null)
        {
            return mode;
        }
        final Hint hint = h.get(contextId);
        return hint == null || hint.mode() == null ? mode : hint.mode();
    }

    /** The hinted fragment payload for {@code contextId}, or 0. */
    private int fragmentHint(final int contextId)
    {
        final Int2ObjectHashMap<Hint> h = hints;
        final Hint hint = h == null ? null : h.get(contextId);
        return hint == null ? 0 : hint.fragmentBytes();
    }

    /** The model in use (null unless {@code auto} with a peer reached by peer memory). */
    CopyCostModel model()
    {
        return model;
    }

    /** Sender: {@code s} goes eagerly. */
    void sentEager()
    {
        eager++;
    }

    /** Sender: whether the rendezvous send {@code s} to {@code ch} may offer a direct copy (else it goes staged, counted). */
    boolean offerDirect(final SendRequestImpl s, final PeerChannel ch)
    {
        if (ch.peerMemory == null)
        {
            stagedNoPeerMemory++;
            return false;
        }
        if (mode(s.contextId) == Mode.STAGED)
        {
            stagedForced++;
            return false;
        }
        if (trialSamples > 0 && model != null && mode(s.contextId) == Mode.AUTO && wishes.stageAtOnce(s, ch.worldRank) > 0)
        {
            // The receiver's on-line check chose the staged pipeline for this layout: no direct offer to turn down.
            stagedAtOnce++;
            return false;
        }
        return true;
    }

    /**
     * Sender, under {@code auto}: packs {@code s} into a staging buffer exposed to the peer of {@code ch} when the model
     * finds its layout too scattered for the receiver to walk ({@link SendPacking}); true when it did.
     */
    boolean packAtSend(final SendRequestImpl s, final PeerChannel ch)
    {
        if (model == null || mode(s.contextId) != Mode.AUTO || trialSamples > 0 && wishes.packRefused(s, ch.worldRank))
        {
            return false;
        }
        return packing.pack(s, ch, model, maxPayload(ch.fastFrameLength));
    }

    /** Sender: the FIN or CTS of {@code s} came: its staging buffer, if any, may serve the next message. */
    void stagingDone(final SendRequestImpl s, final PeerChannel ch)
    {
        packing.done(s, ch);
    }

    /** Sender: the direct offer could not be described (type not decodable, or its RTS larger than a frame). */
    void typeTooLarge()
    {
        stagedTypeTooLarge++;
    }

    /** Sender: the direct offer went out. */
    void offered()
    {
        offeredDirect++;
    }

    /**
     * Receiver: whether to take the direct copy offered for {@code bytes} from {@code sendCount} of the send type
     * {@code sendType} into the layout {@code recv}, by {@code copiers} ranks, for a receive on the context
     * {@code contextId}; false answers CTS (the staged pipeline). Counts a refusal. The last decision is kept: the same
     * message again (an exchange repeats its layouts) reuses it without the send layout's statistics and the model's
     * sums, about 30-70 ns per message, which at 1-16 KiB between threads was most of the 3-5% by which auto trailed a
     * forced direct copy alternated in one job (loaded, session 11).
     */
    boolean takeDirect(final int contextId, final Datatype sendType, final long sendCount, final LayoutStats recv, final long bytes,
        final int copiers, final int maxFrame)
    {
        if (model == null || bytes == 0 || mode(contextId) != Mode.AUTO)
        {
            return true;
        }
        final boolean direct;
        if (sendType == lastSendType && sendCount == lastSendCount && bytes == lastBytes && copiers == lastCopiers && maxFrame == lastMaxFrame &&
            recv.blockCount() == lastRecvBlocks && recv.minRunBytes() == lastRecvMinRun)
        {
            direct = lastDirect;
        }
        else
        {
            direct = model.preferDirect(LayoutStats.of(sendType, sendCount), recv, bytes, copiers, maxPayload(maxFrame));
            lastSendType = sendType;
            lastSendCount = sendCount;
            lastBytes = bytes;
            lastCopiers = copiers;
            lastMaxFrame = maxFrame;
            lastRecvBlocks = recv.blockCount();
            lastRecvMinRun = recv.minRunBytes();
            lastDirect = direct;
        }
        if (!direct)
        {
            stagedByModel++;
        }
        return direct;
    }

    /**
     * Receiver, peer-copy offer of {@code a} matched by {@code r} from the peer of {@code ch}, {@code bytes} taken: the
     * path. {@link PathTrials#DIRECT} (or {@link PathTrials#UNPACKED}, the same for this message) takes the direct copy;
     * a positive value stages it, in fragments of that payload, or of the sender's choice for {@link #STAGED_BY_SENDER}.
     * Under {@code auto} with the on-line check on, a repeated message (same pair, tag, receive layout and size) tries
     * the candidate paths on its first messages and keeps the fastest ({@link PathTrials}); while it does, this receive's
     * completion is timed ({@link #timed}). Counts a refusal of the direct copy.
     */
    int choose(final RecvRequestImpl r, final PeerChannel ch, final PeerCopyPath.Arrival a, final long bytes)
    {
        if (model == null || bytes == 0 || mode(r.entry.contextId) != Mode.AUTO)
        {
            return PathTrials.DIRECT;
        }
        if (trialSamples == 0)
        {
            return oneRun(a) || takeDirect(r.entry.contextId, a.type(), a.count(), r.convertor.stats(), bytes, 1, ch.fastFrameLength)
                ? PathTrials.DIRECT : STAGED_BY_SENDER;
        }
        final PathTrials t = trialsFor(r, ch, a, bytes);
        if (t.handedOver())
        {
            // A direct offer for a layout this side had asked to be sent staged at once: the sender's re-check.
            t.recheckNow();
        }
        wishFor = r;
        final int next = t.next();
        final int path = next > 0 ? next : a.packed() || !t.has(PathTrials.UNPACKED) ? PathTrials.DIRECT : PathTrials.UNPACKED;
        if (t.timing())
        {
            r.trials = t;
            r.trialPath = path;
        }
        if (path > 0)
        {
            stagedByModel++;
        }
        return path;
    }

    /**
     * Whether the send side is one run (a message packed at send, or contiguous data): the model's first choice for it is
     * always the direct copy, since the staged pipeline would copy the same bytes into fragments and write the same
     * receive runs from them, and a message packed at send would be packed a second time (SPECFEM3D_oc middle and
     * NAS_LU_y largest between threads were: packed at send, then staged by the model for their short receive runs;
     * docs/pvas.md, "Session 12: copies"). The on-line check still tries the staged sizes for it.
     */
    private static boolean oneRun(final PeerCopyPath.Arrival a)
    {
        return a.type().isContiguous();
    }

    /** The on-line check's entry of this receive's key, made with the model's choice first when new. */
    private PathTrials trialsFor(final RecvRequestImpl r, final PeerChannel ch, final PeerCopyPath.Arrival a, final long bytes)
    {
        final int context = r.entry.contextId;
        final int tag = r.messageTag;
        if (lastTrials != null && context == lastTrialContext && ch.worldRank == lastTrialSource && tag == lastTrialTag &&
            r.type == lastTrialType && r.count == lastTrialCount && bytes == lastTrialBytes)
        {
            return lastTrials;
        }
        final TrialKey key = new TrialKey(context, ch.worldRank, tag, r.type, r.count, bytes);
        PathTrials t = trials.get(key);
        if (t == null)
        {
            if (trials.size() >= MAX_TRIAL_KEYS)
            {
                trials.clear();
            }
            t = new PathTrials(candidates(context, ch, a, r.convertor.stats(), bytes), trialSamples, trialRecheck, 64 * trialRecheck, trialDelay);
            trials.put(key, t);
            trialKeys++;
        }
        lastTrials = t;
        lastTrialContext = context;
        lastTrialSource = ch.worldRank;
        lastTrialTag = tag;
        lastTrialType = r.type;
        lastTrialCount = r.count;
        lastTrialBytes = bytes;
        return t;
    }

    /**
     * The candidate paths of a new key, the model's choice first: the direct copy (and, for a message packed at send,
     * the direct copy unpacked), and the staged pipeline at the model's best fragment size and its neighbours among
     * {@link CopyCostModel#FRAGMENT_SIZES}, capped by the transport's full-speed frame (or the communicator's fragment
     * hint alone).
     */
    private int[] candidates(final int contextId, final PeerChannel ch, final PeerCopyPath.Arrival a, final LayoutStats recv, final long bytes)
    {
        final LayoutStats send = LayoutStats.of(a.type(), a.count());
        final int cap = maxPayload(ch.fastFrameLength);
        final int hinted = fragmentHint(contextId);
        final ArrayList<Integer> sizes = new ArrayList<>();
        if (hinted > 0)
        {
            sizes.add(Math.min(hinted, maxPayload(ch.maxFrameLength)));
        }
        else
        {
            for (final long f : CopyCostModel.FRAGMENT_SIZES)
            {
                final int size = (int)Math.min(f, cap);
                if (!sizes.contains(size))
                {
                    sizes.add(size);
                }
            }
        }
        final int best = (int)Math.min(model.bestFragment(send, recv, bytes, sizes.get(sizes.size() - 1)), cap);
        int at = sizes.indexOf(best);
        if (at < 0)
        {
            at = sizes.size() - 1;
            for (int i = 0; i < sizes.size(); i++)
            {
                if (sizes.get(i) >= best)
                {
                    at = i;
                    break;
                }
            }
        }
        final boolean direct = oneRun(a) || model.preferDirect(send, recv, bytes, 1, sizes.get(at));
        final ArrayList<Integer> list = new ArrayList<>();
        list.add(direct ? PathTrials.DIRECT : sizes.get(at));
        list.add(PathTrials.DIRECT);
        if (a.packed())
        {
            list.add(PathTrials.UNPACKED);
        }
        // A size whose next smaller one already carries the message in one fragment moves it the same way: not tried.
        for (int i = Math.max(0, at - 1); i <= Math.min(sizes.size() - 1, at + 1); i++)
        {
            if (i == at || i == 0 || sizes.get(i - 1) < bytes)
            {
                list.add(sizes.get(i));
            }
        }
        return list.stream().distinct().mapToInt(Integer::intValue).toArray();
    }

    /** Receiver: the receive {@code r} is complete; if the on-line check times it, the time goes to its key. */
    void timed(final RecvRequestImpl r)
    {
        final PathTrials t = r.trials;
        if (t != null)
        {
            r.trials = null;
            t.completed(r.trialPath, System.nanoTime());
        }
    }

    /**
     * Receiver: the packing wish its CTS or FIN for {@code r} carries to the sender, for its next message of this
     * layout: not to pack at send when the on-line check will take the unpacked direct copy or the staged pipeline next
     * (packing for the pipeline is wasted), the model's choice again when it will take the direct copy as offered; once
     * decided on the staged pipeline, to send the layout staged at once ({@link SenderWishes}).
     */
    byte packWish(final RecvRequestImpl r)
    {
        if (r != wishFor || lastTrials == null)
        {
            return 0;
        }
        wishFor = null;
        final int upcoming = lastTrials.upcoming();
        if (upcoming > 0 && !lastTrials.timing() && lastTrials.rounds() > 0)
        {
            // A round chose the staged pipeline: the sender sends this layout staged at once until its re-check.
            lastTrials.handedOver(true);
            return FrameDescriptor.FLAG_PACK_OFF | FrameDescriptor.FLAG_STAGE;
        }
        return upcoming == PathTrials.DIRECT ? FrameDescriptor.FLAG_PACK_ON : FrameDescriptor.FLAG_PACK_OFF;
    }

    /** Receiver: with {@link FrameDescriptor#FLAG_STAGE} in {@link #packWish}, the fragment size the sender is to use. */
    int wishedFragment()
    {
        return lastTrials == null ? 0 : Math.max(0, lastTrials.chosen());
    }

    /**
     * Sender: the receiver's wish {@code flags} (and the fragment size {@code fragment} it names) in its reply to
     * {@code s}: kept for the next sends of this layout ({@link SenderWishes}).
     */
    void packWished(final SendRequestImpl s, final PeerChannel ch, final byte flags, final int fragment)
    {
        wishes.replied(s, ch.worldRank, flags, fragment);
    }

    /** Receiver: a direct copy by the receiver alone (peer copy), by both (split), or by the sender alone. */
    void directTaken(final boolean receiverCopies, final boolean senderCopies)
    {
        if (receiverCopies && senderCopies)
        {
            splitCopies++;
        }
        else if (receiverCopies)
        {
            peerCopies++;
        }
        else
        {
            this.senderCopies++;
        }
    }

    /**
     * Receiver: a split copy finished, of which the sender copied {@code bySender} bytes where its part was
     * {@code senderPart} of {@code total} (below its part: the sender came late or was descheduled; above: it stole).
     */
    void splitShare(final long bySender, final long senderPart, final long total)
    {
        splitBytes += total;
        splitBytesBySender += bySender;
        splitBytesSenderPart += senderPart;
    }

    /** Receiver: neither buffer could be exposed (heap on both sides across JVMs, or the exposure table full). */
    void notExposable()
    {
        stagedNotExposable++;
    }

    /** Receiver: an RTS of the staged path arrived (the sender chose it). */
    void stagedBySender()
    {
        stagedBySender++;
    }

    /**
     * Sender, on a CTS: the fragment payload for {@code s} to the peer of {@code ch}: {@code jmpi.fragment.size} (at
     * most the transport's frame), or under {@code auto} the model's best up to what the transport carries at full
     * speed ({@link PeerChannel#fastFrameLength}). Between threads a frame longer than an eighth of the pair's ring went
     * through the inbox's side queue in a fresh array: 16 KiB fragments made NAS_MG_y, WRF_y_vec and WRF_x_sa middle
     * 2.3-5.5x slower than fragments that fit the ring (least of 200 ping-pongs, loaded, 2026-11-26), the threads
     * exchange's datatype cells 3-9x slower than the same staged exchange between JVMs (quiet run of session 9).
     * {@code asked}, when positive, is the size the receiver's CTS asks for (its on-line check), which wins.
     */
    int fragmentBytes(final SendRequestImpl s, final PeerChannel ch, final long acceptBytes, final int asked)
    {
        if (asked > 0)
        {
            // The receiver's on-line check chose it (its CTS names it).
            fragmentBytesChosen += asked;
            fragmentChoices++;
            return Math.min(asked, maxPayload(ch.maxFrameLength));
        }
        final int hinted = fragmentHint(s.contextId);
        if (hinted > 0)
        {
            return Math.min(hinted, maxPayload(ch.maxFrameLength));
        }
        final int wished = trialSamples > 0 ? wishes.fragment(s, ch.worldRank) : 0;
        if (wished > 0)
        {
            fragmentBytesChosen += wished;
            fragmentChoices++;
            return Math.min(wished, maxPayload(ch.maxFrameLength));
        }
        if (model == null || ch.peerMemory == null || acceptBytes == 0 || mode(s.contextId) != Mode.AUTO)
        {
            return Math.min(fragmentSize, maxPayload(ch.maxFrameLength));
        }
        final int max = maxPayload(ch.fastFrameLength);
        final LayoutStats stats = s.convertor.stats();
        final long best = model.bestFragment(stats, stats, acceptBytes, max);
        fragmentBytesChosen += best;
        fragmentChoices++;
        return (int)Math.min(best, max);
    }

    private int maxPayload(final int maxFrame)
    {
        return Math.max(1, maxFrame - FrameDescriptor.DATA_HEADER_LENGTH);
    }

    /** The rank's type publication, whose counters the stats line shows. Before traffic. */
    void publishedTypes(final PublishedTypes publishedTypes)
    {
        this.types = publishedTypes;
    }

    /** The on-line check's part of the stats line: keys, rounds, how often it overruled the model, what it chose. */
    private void formatTrials(final StringBuilder sb)
    {
        long rounds = 0;
        long changes = 0;
        long overruled = 0;
        for (final PathTrials t : trials.values())
        {
            rounds += t.rounds();
            changes += t.changes();
            overruled += t.rounds() > 0 && t.chosen() != t.candidates()[0] ? 1 : 0;
        }
        sb.append("; on-line check (").append(trialSamples).append(" samples per path): keys=").append(trialKeys)
            .append(" rounds=").append(rounds).append(" changes=").append(changes).append(" model overruled=").append(overruled)
            .append(" last key's path=").append(lastTrials == null ? "none" : PathTrials.name(lastTrials.chosen()));
    }

    /** The {@code jmpi.pvas.stats} line of the protocol's paths. */

    String format(final int rank)
    {
        final StringBuilder sb = new StringBuilder(256);
        sb.append("jmpi: rank ").append(rank).append(" paths (jmpi.pvas.mode=").append(mode.name().toLowerCase(Locale.ROOT))
            .append("): sent eager=").append(eager)
            .append(" direct-offered=").append(offeredDirect)
            .append(" (packed at send ").append(packing.packed()).append(')')
            .append(" staged[no-peer-memory=").append(stagedNoPeerMemory)
            .append(" mode=").append(stagedForced)
            .append(" type-not-sendable=").append(stagedTypeTooLarge)
            .append(" on-line=").append(stagedAtOnce)
            .append("]; received direct[peer-copy=").append(peerCopies)
            .append(" split-copy=").append(splitCopies)
            .append(" sender-copy=").append(senderCopies)
            .append("] staged[model=").append(stagedByModel)
            .append(" not-exposable=").append(stagedNotExposable)
            .append(" sender-chose=").append(stagedBySender)
            .append(']');
        if (fragmentChoices > 0)
        {
            sb.append("; mean fragment chosen ").append(fragmentBytesChosen / fragmentChoices).append(" B");
        }
        if (splitBytes > 0)
        {
            sb.append("; split copies: the sender copied ").append(100 * splitBytesBySender / splitBytes).append("% of the bytes (its part ")
                .append(100 * splitBytesSenderPart / splitBytes).append("%)");
        }
        if (types != null)
        {
            types.format(sb);
        }
        if (trialKeys > 0)
        {
            formatTrials(sb);
        }
        if (model != null)
        {
            sb.append("; model ").append(model.describe());
        }
        return sb.toString();
    }
}
