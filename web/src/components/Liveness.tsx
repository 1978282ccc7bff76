import { Alert, Button, FileInput, Group, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../app/errors';
import { uploadFile, uploadKycFile } from '../api/kyc-upload';
import * as api from '../api/calls';

const FRAMES = 3;
/** The pause between the pictures of one capture, so they differ as a live face does. */
const FRAME_GAP_MS = 400;

/**
 * Tier 1: three pictures of the face from the camera (getUserMedia) in one capture, shown before they are sent and
 * retaken at will (also after a refusal: the camera stays on until they are accepted), or uploaded photos when there
 * is no camera.
 */
export function Liveness({ onSubmitted }: { onSubmitted(): void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [frames, setFrames] = useState<string[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [capturing, setCapturing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => stream?.getTracks().forEach((tr) => tr.stop()), [stream]);

  async function startCamera() {
    try {
      const s = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false });
      setStream(s);
      if (video.current) {
        video.current.srcObject = s;
        await video.current.play();
      }
    } catch {
      setCameraFailed(true);
    }
  }

  function frame(): string {
    const v = video.current!;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth || 640;
    canvas.height = v.videoHeight || 480;
    canvas.getContext('2d')!.drawImage(v, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/jpeg', 0.85).replace(/^data:[^,]*,/, '');
  }

  /** The three pictures in one go, a moment apart. */
  async function capture() {
    setCapturing(true);
    setError(null);
    const taken: string[] = [];
    for (let i = 0; i < FRAMES; i++) {
      if (i) await new Promise((r) => setTimeout(r, FRAME_GAP_MS));
      taken.push(frame());
    }
    setFrames(taken);
    setCapturing(false);
  }

  async function retake() {
    setFrames([]);
    setError(null);
    if (!stream?.active) await startCamera();
  }

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const paths =
        frames.length >= FRAMES
          ? await Promise.all(frames.map((b64, i) => uploadKycFile(`frame-${i + 1}.jpg`, 'image/jpeg', b64)))
          : await Promise.all(files.map(uploadFile));
      await api.submitTier3Kyc({ frames: paths });
      // Sent: the camera goes off and the pictures go, so a refused selfie starts again from "Open the camera".
      stream?.getTracks().forEach((tr) => tr.stop());
      setStream(null);
      setFrames([]);
      onSubmitted();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const ready = frames.length >= FRAMES || files.length >= FRAMES;
  return (
    <Stack>
      {!cameraFailed && (
        <>
          <video
            ref={video}
            aria-label={t('kyc.camera')}
            playsInline
            muted
            style={{ width: '100%', maxWidth: 360, display: stream ? 'block' : 'none', borderRadius: 8 }}
          />
          {!stream ? (
            <Button onClick={() => void startCamera()}>{t('kyc.start')}</Button>
          ) : frames.length < FRAMES ? (
            <Button onClick={() => void capture()} loading={capturing} aria-live="polite">
              {capturing ? t('kyc.holdStill') : t('kyc.captureAll')}
            </Button>
          ) : (
            <Stack gap="xs">
              <Group gap="xs">
                {frames.map((b64, i) => (
                  <img
                    key={i}
                    src={`data:image/jpeg;base64,${b64}`}
                    alt={t('kyc.picture', { n: i + 1, total: FRAMES })}
                    width={96}
                    height={72}
                    style={{ objectFit: 'cover', borderRadius: 4 }}
                  />
                ))}
              </Group>
              <Button variant="default" onClick={() => void retake()}>
                {t('kyc.retake')}
              </Button>
            </Stack>
          )}
        </>
      )}
      {cameraFailed && <Alert color="yellow">{t('kyc.noCamera')}</Alert>}
      <FileInput
        label={t('kyc.upload')}
        accept="image/jpeg,image/png"
        multiple
        value={files}
        onChange={(f) => setFiles(f.slice(0, 5))}
        clearable
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Button onClick={() => void submit()} disabled={!ready} loading={busy}>
        {t('kyc.submit')}
      </Button>
    </Stack>
  );
}
