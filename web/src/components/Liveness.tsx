import { Alert, Button, FileInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { post } from '../api/client';
import { errorMessage } from '../app/errors';
import { uploadFile, uploadKycFile } from '../api/kyc-upload';

const FRAMES = 3;

/** Tier 1: three pictures of the face from the camera (getUserMedia), or uploaded photos when there is no camera. */
export function Liveness({ onSubmitted }: { onSubmitted(): void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [frames, setFrames] = useState<string[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
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

  function capture() {
    const v = video.current!;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth || 640;
    canvas.height = v.videoHeight || 480;
    canvas.getContext('2d')!.drawImage(v, 0, 0, canvas.width, canvas.height);
    setFrames((f) => [...f, canvas.toDataURL('image/jpeg', 0.85).replace(/^data:[^,]*,/, '')]);
  }

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const paths =
        frames.length >= FRAMES
          ? await Promise.all(frames.map((b64, i) => uploadKycFile(`frame-${i + 1}.jpg`, 'image/jpeg', b64)))
          : await Promise.all(files.map(uploadFile));
      await post('/_serverFn/submitTier3KycBearerKYC', { frames: paths });
      stream?.getTracks().forEach((tr) => tr.stop());
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
          ) : (
            frames.length < FRAMES && <Button onClick={capture}>{t('kyc.capture', { n: frames.length + 1, total: FRAMES })}</Button>
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
      {frames.length > 0 && <Text size="sm">{t('kyc.capture', { n: frames.length, total: FRAMES })} ✓</Text>}
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
